import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { inFlightResponse } from './node-internals';
import { withVerdict, type RequestGate } from './request-gate';

/*
 * The answers the edge writes itself, outside any route: the JSON error body (spec 7) on a
 * response or, where there is none (a refused connection, an upgrade, malformed HTTP), straight on
 * the socket; and Node's client errors (malformed HTTP, oversized heads, timeouts) turned into one.
 */

/** Headers of one answer (lower-case names). */
export type AnswerHeaders = Readonly<Record<string, string>>;

/** How long a socket answered and ended on the raw path may stay open for the client to read. */
const LINGER_MS = 1000;
const JSON_TYPE = 'application/json; charset=utf-8';
const noop = (): void => undefined;
const answered = new WeakSet<Duplex>();

/** The body of every error the server gives (spec 7): `{"error": message}`. */
export function errorBody(message: string): string {
  return JSON.stringify({ error: message });
}

/**
 * Answer an error on a response that has not started, keeping the headers the gate already set on
 * it (x-request-id, rate limit). With `close` the connection ends after the answer.
 */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: AnswerHeaders = {},
  close = false,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = errorBody(message);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (close) res.setHeader('connection', 'close');
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * A whole HTTP/1.1 error answer written on a socket that has no response object (malformed HTTP,
 * a refused connection, an upgrade), then the connection closed. Anything the client still sends
 * is read and dropped for a short while, so closing does not reset the connection before the
 * client read the answer; a second answer on the same socket is ignored.
 */
export function writeRawError(
  socket: Duplex,
  status: number,
  message: string,
  headers: AnswerHeaders,
  linger = true,
): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  socket.on('error', noop);
  if (!socket.writable || socket.destroyed) {
    socket.destroy();
    return;
  }
  const body = errorBody(message);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    `content-type: ${JSON_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  if (linger) closeGently(socket);
  else socket.destroy();
}

/**
 * End `socket` (after what was written) and drop what the client still sends for at most
 * LINGER_MS before destroying it: closing with unread input would reset the connection, and a
 * reset can discard the answer before the client read it.
 */
export function closeGently(socket: Duplex): void {
  socket.on('error', noop);
  if (socket.destroyed) return;
  socket.end();
  // A client still not done after LINGER_MS is given up on: reset, so its unread data goes too.
  const timer = setTimeout(() => reset(socket), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.resume();
}

/**
 * Give up on a connection: reset it (RST) rather than close it, so the kernel drops whatever the
 * client has not read instead of keeping it in an orphaned socket until the client leaves.
 */
export function reset(socket: Duplex): void {
  const s = socket as Duplex & { resetAndDestroy?: () => void };
  if (typeof s.resetAndDestroy === 'function' && !socket.destroyed) s.resetAndDestroy();
  else socket.destroy();
}

/** Node's cap on the request line plus headers (set explicitly so the docs can state it). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Methods some route answers: the Allow of a method no route knows. */
const SERVER_METHODS = 'GET, HEAD, POST';
/** An RFC 9110 token: what a method may be spelled with. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;

interface ClientError extends Error {
  readonly code?: string;
  readonly reason?: string;
  readonly rawPacket?: Buffer;
}

/** Timeouts the messages of 408 answers name. */
export interface TimeoutSettings {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/**
 * Node's `clientError` (Fastify's `clientErrorHandler`): malformed HTTP, headers over
 * MAX_HEADER_BYTES, and the headers and request timeouts. Each is answered like any other
 * request: through the gate, with a JSON `{error}` body, then the connection is closed. When a
 * response to the failed request exists and has not started (a body that timed out), the answer
 * goes on it, with the headers the gate already gave it.
 */
export function clientErrorHandler(gate: RequestGate, timeouts: TimeoutSettings) {
  // A parser that failed reports every later chunk again: the first report is answered.
  const handled = new WeakSet<Duplex>();
  return (error: Error, socket: Duplex): void => {
    const err = error as ClientError;
    if (handled.has(socket)) return;
    handled.add(socket);
    if (err.code === 'ECONNRESET' || socket.destroyed) {
      socket.destroy();
      return;
    }
    const res = inFlightResponse(socket);
    if (res !== undefined && (res.headersSent || res.req.complete)) {
      // The failure is in a later request pipelined behind one already received in full: that
      // one keeps its answer (nothing accepted is lost), then the connection closes.
      if (!res.headersSent) res.setHeader('connection', 'close');
      if (res.writableFinished) closeGently(socket);
      else res.once('finish', () => closeGently(socket));
      return;
    }
    const [status, message, headers] = describe(err, res !== undefined, timeouts);
    if (res !== undefined) {
      sendError(res, status, message, headers, true);
      res.once('finish', () => closeGently(socket));
      return;
    }
    withVerdict(gate.judgePeer((socket as { remoteAddress?: string }).remoteAddress), (verdict) => {
      const refusal = verdict.refusal;
      if (refusal !== null) writeRawError(socket, refusal.status, refusal.error, verdict.headers);
      else writeRawError(socket, status, message, { ...verdict.headers, ...headers });
    });
  };
}

function describe(
  err: ClientError,
  headersParsed: boolean,
  t: TimeoutSettings,
): [number, string, Record<string, string>] {
  switch (err.code ?? '') {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return headersParsed
        ? [408, `the request was not received in full within ${t.requestTimeoutMs} ms`, {}]
        : [408, `the request headers were not received within ${t.headersTimeoutMs} ms`, {}];
    case 'HPE_HEADER_OVERFLOW':
      return [431, `the request line and headers are larger than ${MAX_HEADER_BYTES} bytes`, {}];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'the chunk extensions of the request body are too large', {}];
    case 'HPE_INVALID_METHOD':
      // A method-like token is a method this server does not know; anything else is not HTTP.
      return TOKEN.test(firstWord(err.rawPacket))
        ? [
            405,
            `the method is not supported; this server answers ${SERVER_METHODS}`,
            { allow: SERVER_METHODS },
          ]
        : [400, 'malformed HTTP request: invalid method', {}];
    default:
      if (firstWord(err.rawPacket) === 'PRI')
        return [400, 'HTTP/2 is not supported here: send HTTP/1.1 (an h2c upgrade header is ignored)', {}];
      return [400, `malformed HTTP request: ${(err.reason ?? err.code ?? 'parse error').slice(0, 64)}`, {}];
  }
}

/** The first space-delimited word of what the client sent (at most 33 bytes looked at). */
function firstWord(packet: Buffer | undefined): string {
  if (packet === undefined) return '';
  const head = packet.subarray(0, 33).toString('latin1');
  const space = head.indexOf(' ');
  return space < 0 ? head : head.slice(0, space);
}
