import { connect, type Socket } from 'node:net';
import {
  assertDocumentedClose,
  assertDocumentedFrame,
  assertDocumentedRaw,
} from '../../api/support/contract';

/** One frame as the client puts it on the wire. */
export interface ClientFrame {
  readonly fin: boolean;
  /** RSV1-3 as a 3-bit number (non-zero is a protocol error without an extension). */
  readonly rsv: number;
  readonly opcode: number;
  /** Clients must mask; an unmasked client frame is a protocol error. */
  readonly masked: boolean;
  readonly payload: Uint8Array;
}

/** A frame the server sent: opcode and payload (server frames are never masked). */
export interface ServerFrame {
  readonly opcode: number;
  readonly payload: Buffer;
}

/** Encode a client frame (RFC 6455 5.2), payload masked with a fixed key when `masked`. */
export function encodeFrame(f: ClientFrame): Buffer {
  const len = f.payload.length;
  const head = [((f.fin ? 1 : 0) << 7) | ((f.rsv & 7) << 4) | (f.opcode & 15)];
  const mask = f.masked ? 0x80 : 0;
  if (len < 126) head.push(mask | len);
  else if (len < 65536) head.push(mask | 126, len >> 8, len & 255);
  else head.push(mask | 127, 0, 0, 0, 0, (len >>> 24) & 255, (len >> 16) & 255, (len >> 8) & 255, len & 255);
  const key = [0x37, 0xfa, 0x21, 0x3d];
  const body = Buffer.from(f.payload);
  if (f.masked) for (let i = 0; i < body.length; i++) body[i]! ^= key[i % 4]!;
  return Buffer.concat([Buffer.from(head), Buffer.from(f.masked ? key : []), body]);
}

/** Split what the server sent into frames (a trailing partial frame is left out). */
export function decodeFrames(buf: Buffer): ServerFrame[] {
  const frames: ServerFrame[] = [];
  let at = 0;
  while (at + 2 <= buf.length) {
    const opcode = buf[at]! & 15;
    let len = buf[at + 1]! & 127;
    let start = at + 2;
    if (len === 126) {
      if (start + 2 > buf.length) break;
      len = buf.readUInt16BE(start);
      start += 2;
    } else if (len === 127) {
      if (start + 8 > buf.length) break;
      len = Number(buf.readBigUInt64BE(start));
      start += 8;
    }
    if (start + len > buf.length) break;
    frames.push({ opcode, payload: buf.subarray(start, start + len) });
    at = start + len;
  }
  return frames;
}

/** A stream connection below any WebSocket client: the handshake done, then raw bytes. */
export interface RawStream {
  readonly socket: Socket;
  /** Frames the server sent so far. */
  frames(): ServerFrame[];
  /** Resolves when the server sent its close frame, or the connection ended without one. */
  readonly closed: Promise<void>;
}

/** A WebSocket handshake for /stream/route?query, with `extra` header lines. */
export function handshake(query: string, extra: readonly string[] = []): string {
  return [
    `GET /stream/route?${query} HTTP/1.1`,
    'Host: test',
    ...extra,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version: 13',
    '',
    '',
  ].join('\r\n');
}

/** Open /stream/route?query on a raw socket and complete the handshake. */
export function openRawStream(port: number, query: string, localAddress?: string): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let buf = Buffer.alloc(0);
    let upgraded = false;
    let closedResolve!: () => void;
    const closed = new Promise<void>((r) => (closedResolve = r));
    socket.on('close', () => closedResolve());
    socket.on('error', () => closedResolve());
    socket.on('connect', () => socket.write(handshake(query)));
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (upgraded) {
        if (closeCode(decodeFrames(buf)) !== null) closedResolve();
        return;
      }
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buf.subarray(0, end).toString('latin1');
      if (!head.startsWith('HTTP/1.1 101 ')) return reject(new Error(`no upgrade: ${head}`));
      try {
        assertDocumentedRaw(`GET /stream/route?${query} HTTP/1.1\r\n`, { status: 101, ...headAndBody(head) });
      } catch (e) {
        return reject(e instanceof Error ? e : new Error(String(e)));
      }
      upgraded = true;
      buf = buf.subarray(end + 4);
      resolve({ socket, frames: () => decodeFrames(buf), closed });
    });
  });
}

/** The close frame's code, or null when the server sent none. */
export function closeCode(frames: readonly ServerFrame[]): number | null {
  const close = frames.find((f) => f.opcode === 8);
  return close === undefined || close.payload.length < 2 ? null : close.payload.readUInt16BE(0);
}

/**
 * The text frames, parsed as JSON, each checked against the AsyncAPI document, and the server's
 * close (when it sent one) against its close table and the error frame before it, unless it is
 * the answer to `echoOf`, the payload of a close the client sent.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON under test
export function textFrames(frames: readonly ServerFrame[], echoOf: Uint8Array | null = null): any[] {
  const texts = frames
    .filter((f) => f.opcode === 1)
    .map((f) => JSON.parse(f.payload.toString('utf8')) as unknown);
  for (const t of texts) assertDocumentedFrame(t);
  const close = frames.find((f) => f.opcode === 8);
  // The answer to the client's own close carries the client's code and reason (RFC 6455 5.5.1).
  const echo = close !== undefined && echoOf !== null && close.payload.equals(echoOf);
  if (close !== undefined && close.payload.length >= 2 && !echo)
    assertDocumentedClose(
      close.payload.readUInt16BE(0),
      close.payload.subarray(2).toString('utf8'),
      texts.at(-1),
    );
  return texts;
}

/** The header fields of a response head (lower-case names), with no body. */
function headAndBody(head: string): { headers: Record<string, string>; body: string; json: undefined } {
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: '', json: undefined };
}
