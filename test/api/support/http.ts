import WebSocket from 'ws';

/** A decoded JSON body or frame; tests check its shape with assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON under test
export type Json = any;

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Json;
}

/** One real HTTP request (undici fetch); the body parsed as JSON when it is JSON. */
export async function call(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(base + path, init);
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text };
}

export function postJson(
  base: string,
  body: unknown,
  path = '/route',
  headers: Record<string, string> = {},
): Promise<Answer> {
  return call(base, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export interface Stream {
  readonly ws: WebSocket;
  /** Every message received so far, parsed. */
  readonly frames: Json[];
  /** Resolves with the next frame not yet taken. */
  next(timeoutMs?: number): Promise<Json>;
  /** Resolves true if no new frame arrives within `ms`. */
  quiet(ms: number): Promise<boolean>;
  readonly closed: Promise<{ code: number; reason: string }>;
}

/** A real WebSocket client (ws) on /stream/route with `query`. */
export function openStream(wsBase: string, query: string, options: WebSocket.ClientOptions = {}): Stream {
  const ws = new WebSocket(`${wsBase}/stream/route?${query}`, options);
  const frames: Json[] = [];
  let taken = 0;
  let waiter: (() => void) | null = null;
  ws.on('message', (data: WebSocket.RawData) => {
    frames.push(
      JSON.parse((Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)).toString()),
    );
    waiter?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('error', () => undefined);
  return {
    ws,
    frames,
    closed,
    next: (timeoutMs = 2000) =>
      new Promise((resolve, reject) => {
        const take = (): boolean => {
          if (taken >= frames.length) return false;
          resolve(frames[taken++]);
          return true;
        };
        if (take()) return;
        const timer = setTimeout(() => reject(new Error(`no frame within ${timeoutMs} ms`)), timeoutMs);
        waiter = () => {
          if (take()) {
            clearTimeout(timer);
            waiter = null;
          }
        };
      }),
    quiet: async (ms) => {
      const before = frames.length;
      await new Promise((r) => setTimeout(r, ms));
      return frames.length === before;
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
