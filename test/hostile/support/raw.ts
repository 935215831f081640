import { connect, type Socket } from 'node:net';
import { assertDocumentedRaw } from '../../api/support/contract';

/** A decoded JSON body (tests check its shape with assertions). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON under test
export type Json = any;

/** The first final response read from a raw connection (1xx interim answers skipped). */
export interface RawAnswer {
  /** 0 when no response arrived before the connection ended or the wait ran out. */
  readonly status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The body parsed, when the content type is JSON. */
  readonly json: Json;
  /** Everything received, as latin1 text. */
  readonly raw: string;
  /** How the exchange ended: the answer was complete, the server closed, or the wait ran out. */
  readonly end: 'complete' | 'closed' | 'timeout';
}

export interface RawOptions {
  readonly localAddress?: string;
  readonly host?: string;
  readonly timeoutMs?: number;
  /** Called once connected, to send the request (default: write `data`). */
  readonly send?: (socket: Socket) => void;
}

/**
 * Send `data` on a new TCP connection and read the first final HTTP answer (Content-Length bodies
 * or until the server closes). No HTTP client in between, so anything can be sent. Every answer
 * received whole is checked against the OpenAPI document for the request `data` starts with
 * (issue 12): an undeclared status, header or field rejects the promise.
 */
export function exchange(port: number, data: string | Buffer, options: RawOptions = {}): Promise<RawAnswer> {
  const { localAddress, host = '127.0.0.1', timeoutMs = 10_000 } = options;
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host, localAddress });
    // What was written (by `send` too), so the answer is checked against the request really sent.
    let sent = Buffer.alloc(0);
    const original = socket.write.bind(socket);
    Object.assign(socket, {
      write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
        if (sent.length < 8192) sent = Buffer.concat([sent, Buffer.from(chunk)]);
        return Reflect.apply(original, socket, [chunk, ...rest]) as boolean;
      },
    });
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = (end: RawAnswer['end']): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parseAnswer(buf, end);
      try {
        if (whole(buf, end)) assertDocumentedRaw(sent, answer);
        resolve(answer);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('connect', () => (options.send ? options.send(socket) : socket.write(data)));
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (complete(buf)) finish('complete');
    });
    socket.on('close', () => finish('closed'));
    socket.on('error', () => finish('closed'));
  });
}

/** Where the first final answer's head ends, and its declared body length (or null). */
function finalHead(buf: Buffer): { bodyAt: number; length: number | null; headText: string } | null {
  let at = 0;
  for (;;) {
    const end = buf.indexOf('\r\n\r\n', at, 'latin1');
    if (end < 0) return null;
    const headText = buf.subarray(at, end).toString('latin1');
    if (!/^HTTP\/1\.[01] 1\d\d /.test(headText)) {
      const m = /\r\ncontent-length:\s*(\d+)/i.exec(headText);
      return { bodyAt: end + 4, length: m === null ? null : Number(m[1]), headText };
    }
    at = end + 4;
  }
}

/** Whether a final answer arrived whole: its Content-Length read, or its body ended by the close. */
function whole(buf: Buffer, end: RawAnswer['end']): boolean {
  const head = finalHead(buf);
  if (head === null) return false;
  return head.length === null ? end === 'closed' : buf.length - head.bodyAt >= head.length;
}

function complete(buf: Buffer): boolean {
  const head = finalHead(buf);
  return head !== null && head.length !== null && buf.length - head.bodyAt >= head.length;
}

function parseAnswer(buf: Buffer, end: RawAnswer['end']): RawAnswer {
  const raw = buf.toString('latin1');
  const head = finalHead(buf);
  if (head === null) return { status: 0, headers: {}, body: '', json: undefined, raw, end };
  const [statusLine = '', ...lines] = head.headText.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyBytes = buf.subarray(head.bodyAt, head.length === null ? undefined : head.bodyAt + head.length);
  const body = bodyBytes.toString('utf8');
  let json: Json;
  if ((headers['content-type'] ?? '').includes('json')) {
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
  }
  return { status, headers, body, json, raw, end };
}

/** A plain HTTP/1.1 GET with Host and Connection: close, plus `extra` header lines. */
export function get(path: string, extra: readonly string[] = []): string {
  return [`GET ${path} HTTP/1.1`, 'Host: test', 'Connection: close', ...extra, '', ''].join('\r\n');
}
