import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { writeRawError, type AnswerHeaders } from './answers';
import { headProblem, pathOf, STREAM_PATH, targetProblem, type FrontDoor, type Problem } from './front-door';
import { withVerdict } from './request-gate';

/** What takes a WebSocket handshake that passed the gate and the checks (the stream's ws server). */
export interface StreamEndpoint {
  /** Complete the handshake; `headers` ride on the 101. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, headers: AnswerHeaders): void;
}

/** ws's own test of a Sec-WebSocket-Key: 16 bytes in base64. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;
const SUPPORTED_VERSIONS = '13, 8';
/** Headers that ask for a protocol switch; dropped when an upgrade is ignored. */
const UPGRADE_HEADERS = new Set(['upgrade', 'http2-settings']);

/**
 * Node hands every request with `Connection: Upgrade` (and every CONNECT) to these listeners
 * instead of the request handler. On the stream's path the handshake passes the gate and is
 * checked here, so every refusal is a JSON answer with the gate's headers. On any other path the
 * upgrade is ignored: the request is given back to the HTTP parser without its upgrade headers and
 * answered normally (an h2c attempt gets an HTTP/1.1 answer). CONNECT is 405.
 */
export class Upgrades {
  private stream: StreamEndpoint | null = null;

  constructor(
    private readonly front: FrontDoor,
    /** Told of each socket handed to the stream (the connection budget never sheds streams). */
    private readonly onStream: (socket: Socket) => void = () => undefined,
  ) {}

  /** The stream's WebSocket server, once Nest created it (before the server listens). */
  serveStream(endpoint: StreamEndpoint): void {
    this.stream = endpoint;
  }

  install(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (pathOf(req.url ?? '') !== STREAM_PATH) return replayWithoutUpgrade(server, req, socket, head);
      withVerdict(this.front.judge(req), (verdict) => {
        if (verdict.refusal !== null)
          return writeRawError(socket, verdict.refusal.status, verdict.refusal.error, verdict.headers);
        const problem = handshakeProblem(req) ?? (this.stream === null ? NOT_READY : null);
        if (problem !== null)
          return writeRawError(socket, problem.status, problem.error, {
            ...verdict.headers,
            ...problem.headers,
          });
        this.onStream(socket as Socket);
        this.stream!.accept(req, socket, head, verdict.headers);
      });
    });
    server.on('connect', (req: IncomingMessage, socket: Duplex) => {
      withVerdict(this.front.judge(req), (verdict) => {
        if (verdict.refusal !== null)
          return writeRawError(socket, verdict.refusal.status, verdict.refusal.error, verdict.headers);
        writeRawError(socket, 405, 'method CONNECT is not supported: this is not a proxy', {
          ...verdict.headers,
          allow: 'GET, HEAD, POST',
        });
      });
    });
  }
}

const NOT_READY: Problem = { status: 404, error: `no endpoint at '${STREAM_PATH}'` };

/** What ws would refuse in a handshake, answered here with a status and a JSON body instead. */
function handshakeProblem(req: IncomingMessage): Problem | null {
  if (req.method !== 'GET')
    return {
      status: 405,
      error: `method ${req.method} is not allowed on ${STREAM_PATH}`,
      headers: { allow: 'GET' },
    };
  const head = headProblem(req);
  if (head !== null) return head;
  const target = targetProblem(req.url ?? '');
  if (target !== null) return target;
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
    return {
      status: 426,
      error: `${STREAM_PATH} takes a WebSocket handshake (Upgrade: websocket)`,
      headers: { upgrade: 'websocket' },
    };
  const key = req.headers['sec-websocket-key'];
  if (key === undefined || !KEY.test(key))
    return { status: 400, error: 'missing or invalid Sec-WebSocket-Key header' };
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8')
    return {
      status: 426,
      error: `unsupported Sec-WebSocket-Version: this server speaks ${SUPPORTED_VERSIONS}`,
      // RFC 9110 15.5.22: a 426 names the protocol to upgrade to.
      headers: { upgrade: 'websocket', 'sec-websocket-version': SUPPORTED_VERSIONS },
    };
  return null;
}

/**
 * Give an upgrade request on a plain path back to Node's HTTP parser without its upgrade headers:
 * its head (already validated by the parser, at most the header cap) is written out again in
 * front of whatever followed it, and the socket re-enters as a connection (not counted twice).
 */
function replayWithoutUpgrade(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (UPGRADE_HEADERS.has(lower)) continue;
    let value = raw[i + 1]!;
    if (lower === 'connection') {
      value = value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '' && !UPGRADE_HEADERS.has(t.toLowerCase()))
        .join(', ');
      if (value === '') continue;
    }
    lines.push(`${name}: ${value}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}
