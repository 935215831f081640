import type { Duplex } from 'node:stream';
import { closeGently, inFlightResponse, sendError, writeRawError } from './answers';
import type { FrontDoor } from './front-door';
import { withVerdict } from './request-gate';

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
export function clientErrorHandler(front: FrontDoor, timeouts: TimeoutSettings) {
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
    withVerdict(front.judgePeer((socket as { remoteAddress?: string }).remoteAddress), (verdict) => {
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
