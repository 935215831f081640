import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type ServerOptions } from 'ws';
import { pathOf } from '@app/request';
import { writeRawError, type AnswerHeaders } from './answers';
import {
  headProblem,
  isStreamPath,
  STREAM_V2_PATH,
  STREAM_V2_PROTOCOL,
  targetProblem,
  type Problem,
} from './front-door';
import { replayWithoutUpgrade } from './node20-upgrade-replay';
import { withVerdict, type RequestGate } from './request-gate';

/** ws's own test of a Sec-WebSocket-Key: 16 bytes in base64. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;
const SUPPORTED_VERSIONS = '13, 8';
/** An RFC 9110 token (a subprotocol name). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

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
    this.streams = new WebSocketServer({
      ...streamOptions,
      noServer: true,
      // Checked before the handshake (protocolProblem): only /stream selects, and only v2.
      handleProtocols: (offered, req) =>
        pathOf(req.url ?? '') === STREAM_V2_PATH && offered.has(STREAM_V2_PROTOCOL)
          ? STREAM_V2_PROTOCOL
          : false,
    });
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
      if (!isStreamPath(pathOf(req.url ?? ''))) return replayWithoutUpgrade(server, req, socket, head);
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

const NOT_READY: Problem = { status: 404, error: 'no stream endpoint yet: the server is starting' };

/** What ws would refuse in a handshake, answered here with a status and a JSON body instead. */
function handshakeProblem(req: IncomingMessage): Problem | null {
  const path = pathOf(req.url ?? '');
  if (req.method !== 'GET')
    return {
      status: 405,
      error: `method ${req.method} is not allowed on ${path}`,
      headers: { allow: 'GET' },
    };
  const head = headProblem(req);
  if (head !== null) return head;
  const target = targetProblem(req.url ?? '');
  if (target !== null) return target;
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
    return {
      status: 426,
      error: `${path} takes a WebSocket handshake (Upgrade: websocket)`,
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
  return protocolProblem(path, req.headers['sec-websocket-protocol']);
}

/**
 * Subprotocols (RFC 6455 4.2.2): /stream speaks routestream.v2 and is refused without it;
 * /stream/route speaks none and refuses any offered, never a 101 that echoes what it cannot speak.
 */
function protocolProblem(path: string, header: string | undefined): Problem | null {
  const offered = header === undefined ? [] : header.split(',').map((p) => p.trim());
  // A malformed list (RFC 6455 4.1: tokens, comma-separated) is left to ws, which refuses it.
  if (offered.some((p) => !TOKEN.test(p))) return null;
  if (path === STREAM_V2_PATH) {
    if (offered.includes(STREAM_V2_PROTOCOL)) return null;
    return {
      status: 400,
      error: `${STREAM_V2_PATH} speaks the subprotocol ${STREAM_V2_PROTOCOL}: offer it in Sec-WebSocket-Protocol`,
    };
  }
  if (offered.length === 0) return null;
  return {
    status: 400,
    error: `${path} speaks no subprotocol (offered: ${JSON.stringify(offered.slice(0, 4).join(', ').slice(0, 120))}); ${STREAM_V2_PROTOCOL} is served at ${STREAM_V2_PATH}`,
  };
}
