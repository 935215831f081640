import type { operations } from './openapi';
import { serializeQuery, type RouteResult } from './client';

/** The stream's connection parameters: GET /route's, without balances and asOf (refused there). */
export type StreamQuery = Omit<operations['getRoute']['parameters']['query'], 'balances' | 'asOf'>;

/** The frame the server sends just before it closes a stream for a reason. */
export interface StreamErrorFrame {
  error: string;
  /** 1002: a malformed WebSocket frame; 1008: a refused request or client message; 1013: a limit or the journal. */
  code: 1002 | 1008 | 1013;
  reason: string;
}

/** The part of the WebSocket interface the helper needs (the browser's, Node's or the ws package's). */
export interface WebSocketLike {
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(code?: number, reason?: string): void;
}

/** An open route stream. */
export interface RouteStream {
  /** Settles when the socket closes, with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export interface RouteStreamHandlers {
  /** Each route frame (the current route on open, then one per change, at most every 100 ms). */
  onFrame(result: RouteResult): void;
  /** The error frame sent before a refusal close (1002, 1008, 1013). */
  onError?(frame: StreamErrorFrame): void;
}

/** The stream's URL for `query` on the server at `baseUrl` (http -> ws, https -> wss). */
export function routeStreamUrl(baseUrl: string, query: StreamQuery): string {
  return `${baseUrl.replace(/^http/, 'ws')}/stream/route?${serializeQuery(query)}`;
}

/**
 * Open GET /stream/route and hand each frame to `handlers`. `connect` makes the socket, e.g.
 * `(url) => new WebSocket(url)` with the browser's WebSocket or the ws package's.
 */
export function openRouteStream(
  baseUrl: string,
  query: StreamQuery,
  handlers: RouteStreamHandlers,
  connect: (url: string) => WebSocketLike,
): RouteStream {
  const ws = connect(routeStreamUrl(baseUrl, query));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.onclose = (event) => resolve({ code: event.code, reason: String(event.reason) });
  });
  ws.onerror = () => undefined;
  ws.onmessage = (event) => {
    const frame = JSON.parse(String(event.data)) as RouteResult | StreamErrorFrame;
    if ('error' in frame) handlers.onError?.(frame);
    else handlers.onFrame(frame);
  };
  return { closed, close: () => ws.close(1000, 'done') };
}
