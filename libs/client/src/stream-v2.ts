import type { RouteBody, RouteResult } from './client';

/** The subprotocol of GET /stream. */
export const STREAM_V2_PROTOCOL = 'routestream.v2';

/** A route as `subscribe` takes it: the POST /route body without balances and asOf. */
export type StreamRoute = Omit<RouteBody, 'balances' | 'asOf'>;

export interface V2Quote {
  type: 'quote';
  id: string;
  streamId: string;
  seq: number;
  tick: number;
  ticksSkipped: number;
  cause: {
    kind: 'open' | 'resume' | 'book' | 'listing' | 'staleness';
    markets: string[];
    positions: unknown;
  };
  validUntil: number | null;
  resultSha256: string;
  /** With the server's RECEIPTS=true: the signed receipt of the result bytes (docs/audit.md). */
  receipt?: string;
  result: RouteResult;
}

export type ResumeVerdict =
  | { resumed: true; missedFrames: number }
  | {
      resumed: false;
      reason: 'unknown_stream' | 'expired' | 'request_mismatch' | 'seq_ahead' | 'still_open' | 'not_closed';
    };

export interface V2Error {
  type: 'error';
  id: string | null;
  op: string | null;
  code: string;
  status: number;
  message: string;
}

/** A WebSocket that can send (the browser's, or the ws package's). */
export interface SendingWebSocket {
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

export interface StreamV2Handlers {
  onQuote(quote: V2Quote): void;
  /** What a resume came to, per subscription, after a reconnect. */
  onSubscribed?(id: string, streamId: string, resume: ResumeVerdict | null): void;
  onError?(error: V2Error): void;
  /** A quote whose seq is not the one after the last (a frame lost between server and client). */
  onGap?(id: string, expected: number, got: number): void;
  /** The connection: up after a welcome, down when it closed and a reconnect is scheduled. */
  onConnection?(state: 'up' | 'down', detail: string): void;
}

export interface StreamV2Options {
  /** Makes the socket: `(url, protocol) => new WebSocket(url, protocol)`. */
  connect(url: string, protocol: string): SendingWebSocket;
  /** Randomness for the reconnect jitter (Math.random by default). */
  random?: () => number;
  /** First reconnect pause and its ceiling (ms); each failure doubles it, full jitter. */
  reconnectMs?: { readonly first: number; readonly max: number };
  /** How long to wait for the welcome before giving the connection up (ms). */
  welcomeTimeoutMs?: number;
}

interface Wanted {
  route: StreamRoute;
  minIntervalMs?: number;
  /** The last quote seen: where a reconnect resumes from. */
  last: { streamId: string; seq: number } | null;
}

/**
 * A client of GET /stream (docs/api.md "Stream protocol v2"): it requires the welcome, keeps the
 * subscriptions it was asked for across reconnects (jittered backoff, honouring goaway's pause),
 * resumes each from its last streamId and seq, checks that seq is contiguous, and treats a
 * silence longer than two heartbeats as a dead connection.
 */
export class RouteStreamV2 {
  private ws: SendingWebSocket | null = null;
  private readonly wanted = new Map<string, Wanted>();
  private welcomed = false;
  private closedByUser = false;
  private failures = 0;
  /** The server's, from its welcome (read only after the welcome). */
  private heartbeatMs = 0;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private goawayMs: number | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly handlers: StreamV2Handlers,
    private readonly options: StreamV2Options,
  ) {
    this.open();
  }

  subscribe(id: string, route: StreamRoute, minIntervalMs?: number): void {
    this.wanted.set(id, { route, ...(minIntervalMs === undefined ? {} : { minIntervalMs }), last: null });
    if (this.welcomed) this.sendSubscribe(id);
  }

  unsubscribe(id: string): void {
    if (this.wanted.delete(id) && this.welcomed) this.ws?.send(JSON.stringify({ type: 'unsubscribe', id }));
  }

  close(): void {
    this.closedByUser = true;
    this.clearTimers();
    this.ws?.close(1000, 'done');
  }

  private open(): void {
    this.welcomed = false;
    const ws = this.options.connect(`${this.baseUrl.replace(/^http/, 'ws')}/stream`, STREAM_V2_PROTOCOL);
    this.ws = ws;
    this.arm(this.options.welcomeTimeoutMs ?? 5_000);
    ws.onerror = () => undefined;
    ws.onclose = (e) => this.down(`closed ${e.code} ${e.reason}`);
    ws.onmessage = (e) =>
      this.message(JSON.parse(String(e.data)) as { type: string } & Record<string, unknown>);
  }

  private message(m: { type: string } & Record<string, unknown>): void {
    if (!this.welcomed) {
      if (m.type !== 'welcome') return this.abandon(1002, 'no welcome');
      this.welcomed = true;
      this.failures = 0;
      this.heartbeatMs = Number(m.heartbeatMs);
      this.handlers.onConnection?.('up', 'welcome');
      for (const id of this.wanted.keys()) this.sendSubscribe(id);
    }
    // Any message proves the connection alive; a heartbeat comes at least every heartbeatMs.
    this.arm(2 * this.heartbeatMs + 1_000);
    if (m.type === 'quote') return this.quote(m as unknown as V2Quote);
    if (m.type === 'subscribed')
      return this.handlers.onSubscribed?.(String(m.id), String(m.streamId), m.resume as ResumeVerdict | null);
    if (m.type === 'error') return this.handlers.onError?.(m as unknown as V2Error);
    if (m.type === 'goaway') this.goawayMs = Number(m.reconnectAfterMs);
  }

  private quote(q: V2Quote): void {
    const w = this.wanted.get(q.id);
    if (w === undefined) return;
    const expected = w.last !== null && w.last.streamId === q.streamId ? w.last.seq + 1 : 1;
    if (q.seq !== expected) this.handlers.onGap?.(q.id, expected, q.seq);
    w.last = { streamId: q.streamId, seq: q.seq };
    this.handlers.onQuote(q);
  }

  private sendSubscribe(id: string): void {
    const w = this.wanted.get(id);
    if (w === undefined) return;
    const message = {
      type: 'subscribe',
      id,
      route: w.route,
      ...(w.minIntervalMs === undefined ? {} : { minIntervalMs: w.minIntervalMs }),
      ...(w.last === null ? {} : { resume: w.last }),
    };
    this.ws?.send(JSON.stringify(message));
  }

  /** The connection is gone: reconnect after goaway's pause, or a jittered backoff. */
  private down(why: string): void {
    this.clearTimers();
    this.ws = null;
    this.welcomed = false;
    if (this.closedByUser) return;
    this.handlers.onConnection?.('down', why);
    const { first, max } = this.options.reconnectMs ?? { first: 500, max: 30_000 };
    const ceiling = Math.min(max, first * 2 ** this.failures++);
    const pause = (this.goawayMs ?? 0) + (this.options.random ?? Math.random)() * ceiling;
    this.goawayMs = null;
    this.retry = setTimeout(() => this.open(), pause);
  }

  /** (Re)arm the watchdog: silence for `ms` abandons the socket and reconnects. */
  private arm(ms: number): void {
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.abandon(4000, 'silent'), ms);
  }

  /**
   * Close the socket and reconnect now. A silent connection is often a dead one, whose close
   * handshake never completes: its close event comes only when the WebSocket gives up (30 s in
   * `ws`, longer in some browsers), so the client does not wait for it.
   */
  private abandon(code: number, reason: string): void {
    const ws = this.ws;
    if (ws === null) return;
    ws.onclose = () => undefined;
    ws.onmessage = () => undefined;
    ws.close(code, reason);
    this.down(`${reason} (closed ${code})`);
  }

  private clearTimers(): void {
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    if (this.retry !== null) clearTimeout(this.retry);
    this.watchdog = null;
    this.retry = null;
  }
}
