import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type ServerOptions } from 'ws';
import { pathOf } from '@app/request';
import { writeRawError, type AnswerHeaders } from './answers';
import { headProblem, STREAM_PATH, targetProblem, type Problem } from './front-door';
import { replayWithoutUpgrade } from './node20-upgrade-replay';
import { withVerdict, type RequestGate } from './request-gate';

/** ws's own test of a Sec-WebSocket-Key: 16 bytes in base64. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;
const SUPPORTED_VERSIONS = '13, 8';

/**
 * Node hands every request with `Connection: Upgrade` (and every CONNECT) to these listeners
 * instead of the request handler. On the stream's path the handshake passes the gate and is
 * checked here, so every refusal is a JSON answer with the gate's headers; what passes is
 * completed by `streams`, the stream's WebSocket server, made here before Nest: Nest's adapter
 * (stream/gated-ws-adapter.ts) is handed it and binds the gateway to its `connection` event. On
 * any other path the upgrade is ignored and the request answered as a plain one (Node 20:
 * node20-upgrade-replay.ts; later Nodes never send it here). CONNECT is 405.
 */
export class Upgrades {
  /** The stream's WebSocket server: completes the handshakes that passed, then emits `connection`. */
  readonly streams: WebSocketServer;
  /** The gate's headers of each handshake, which ride on its 101. */
  private readonly upgradeHeaders = new WeakMap<IncomingMessage, AnswerHeaders>();

  constructor(
    private readonly gate: RequestGate,
    streamOptions: ServerOptions,
    /** Told of each socket handed to the stream (the connection budget never sheds streams). */
    private readonly onStream: (socket: Socket) => void,
  ) {
    this.streams = new WebSocketServer({ ...streamOptions, noServer: true });
    this.streams.on('headers', (headers: string[], req: IncomingMessage) => {
      for (const [name, value] of Object.entries(this.upgradeHeaders.get(req) ?? {}))
        headers.push(`${name}: ${value}`);
    });
    // What ws still refuses after the checks here (a malformed Sec-WebSocket-Protocol).
    this.streams.on('wsClientError', (err: Error, socket: Duplex, req: IncomingMessage) =>
      writeRawError(
        socket,
        400,
        `invalid WebSocket handshake: ${err.message}`,
        this.upgradeHeaders.get(req) ?? {},
      ),
    );
  }

  install(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (pathOf(req.url ?? '') !== STREAM_PATH) return replayWithoutUpgrade(server, req, socket, head);
      withVerdict(this.gate.judgeRequest(req), (verdict) => {
        if (verdict.refusal !== null)
          return writeRawError(socket, verdict.refusal.status, verdict.refusal.error, verdict.headers);
        const problem = handshakeProblem(req) ?? (this.serving() ? null : NOT_READY);
        if (problem !== null)
          return writeRawError(socket, problem.status, problem.error, {
            ...verdict.headers,
            ...problem.headers,
          });
        this.onStream(socket as Socket);
        this.upgradeHeaders.set(req, verdict.headers);
        this.streams.handleUpgrade(req, socket, head, (ws) => this.streams.emit('connection', ws, req));
      });
    });
    server.on('connect', (req: IncomingMessage, socket: Duplex) => {
      withVerdict(this.gate.judgeRequest(req), (verdict) => {
        if (verdict.refusal !== null)
          return writeRawError(socket, verdict.refusal.status, verdict.refusal.error, verdict.headers);
        writeRawError(socket, 405, 'method CONNECT is not supported: this is not a proxy', {
          ...verdict.headers,
          allow: 'GET, HEAD, POST',
        });
      });
    });
  }

  /** Whether the stream's gateway takes connections yet (Nest binds it when the app initialises). */
  private serving(): boolean {
    return this.streams.listenerCount('connection') > 0;
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
