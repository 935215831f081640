import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

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

/** The response in flight on a server socket, if any (what Node's own clientError default checks). */
export function inFlightResponse(socket: Socket | Duplex): ServerResponse | undefined {
  return (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}
