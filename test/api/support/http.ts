import WebSocket from 'ws';
import { createApiClient, type ApiClient } from '@app/client';
import { assertDocumented, assertDocumentedClose, assertDocumentedFrame, documentedFetch } from './contract';

/** A decoded JSON body or frame; tests check its shape with assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON under test
export type Json = any;

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Json;
}

/**
 * One real HTTP request (undici fetch); the body parsed as JSON when it is JSON. Every answer is
 * checked against the OpenAPI document (status declared, body and headers as declared).
 */
export async function call(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(base + path, init);
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '';
  const body: Json = json ? JSON.parse(text) : text;
  assertDocumented(init.method ?? 'GET', base + path, res.status, res.headers, body);
  return { status: res.status, headers: res.headers, body };
}

/** The generated typed client (@app/client) on `base`, every answer checked against the document. */
export function apiClient(base: string): ApiClient {
  return createApiClient(base, { fetch: documentedFetch });
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
  let errorFrame: unknown = null;
  ws.on('message', (data: WebSocket.RawData) => {
    const frame: unknown = JSON.parse(
      (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)).toString(),
    );
    // Every frame must be one the AsyncAPI document declares (a failure fails the waiting test).
    assertDocumentedFrame(frame);
    if (typeof frame === 'object' && frame !== null && 'error' in frame) errorFrame = frame;
    frames.push(frame);
    waiter?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve, reject) =>
    ws.on('close', (code, reason) => {
      const text = reason.toString();
      try {
        if (errorFrame !== null || code === 1008 || code === 1013)
          assertDocumentedClose(code, text, errorFrame);
        resolve({ code, reason: text });
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    }),
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
