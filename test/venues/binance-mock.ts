import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { startMockVenue, type MockVenue } from './mock-server';
import { RawBook } from './memory-sink';

/** One captured depthUpdate frame. */
export interface BinanceDelta {
  readonly id: string;
  readonly frame: string;
  readonly U: number;
  readonly u: number;
  readonly b: [string, string][];
  readonly a: [string, string][];
}

/** The binance 2021 capture: exchangeInfo, REST depth snapshots and depthUpdate diffs in arrival order. */
export interface BinanceCapture {
  readonly exchangeInfo: string;
  readonly snapshots: ReadonlyMap<string, string>;
  readonly deltas: readonly BinanceDelta[];
}

/** `prefix` BINANCE_US reads Binance.US's capture of 2021-10-12, which has the same shape. */
export function readBinanceCapture(prefix: 'BINANCE' | 'BINANCE_US' = 'BINANCE'): BinanceCapture {
  const info = readV1(`${prefix}.0`).find((l) => l.t === 'http');
  const snapshots = new Map<string, string>();
  for (const l of readV1(`${prefix}.http.0.0`)) {
    if (l.t !== 'http') continue;
    const id = /symbol=(\w+)/.exec(l.url)?.[1];
    if (id !== undefined) snapshots.set(id, l.data);
  }
  const deltas: BinanceDelta[] = [];
  for (const l of readV1(`${prefix}.ws.1.0`)) {
    if (l.t !== 'recv') continue;
    const msg = JSON.parse(l.data) as { stream?: string; data?: Record<string, unknown> };
    const d = msg.data;
    if (d?.e !== 'depthUpdate') continue;
    deltas.push({
      id: d.s as string,
      frame: l.data,
      U: d.U as number,
      u: d.u as number,
      b: d.b as [string, string][],
      a: d.a as [string, string][],
    });
  }
  if (info === undefined || info.t !== 'http') throw new Error(`${prefix}.0 holds no exchangeInfo`);
  return { exchangeInfo: info.data, snapshots, deltas };
}

interface Snapshot {
  lastUpdateId: number;
  bids: [string, string][];
  asks: [string, string][];
}

/**
 * Binance spot as ccxt sees it: GET /api/v3/exchangeInfo and /api/v3/depth, and a combined-stream
 * socket answering SUBSCRIBE with {result:null,id} then pushing depthUpdate frames. The venue's
 * clock is the capture: a pump publishes the captured diffs in order whether or not anybody
 * listens, and /depth serves the book as of the pump's position (the captured snapshot itself
 * until the pump passes it), so re-subscriptions after gaps and drops see a consistent venue.
 */
export class BinanceMock {
  private venue!: MockVenue;
  private pos = 0;
  private readonly state = new Map<
    string,
    { snap: Snapshot; changed: boolean; book: Map<string, string>[] }
  >();
  private readonly subs = new Map<WebSocket, Set<string>>();
  private pumping: Promise<void> | null = null;
  subscribeCount = 0;
  depthRequests = 0;
  /** Index into capture.deltas of a frame to publish but not deliver (a lost message). */
  dropIndex = -1;
  /** Frames delivered after the capture but never applied to the venue's book (corrupt data). */
  readonly corruptFrames: BinanceDelta[] = [];

  constructor(
    readonly capture: BinanceCapture,
    private readonly paceMs = 2,
  ) {}

  get http(): string {
    return this.venue.http;
  }
  get ws(): string {
    return this.venue.ws;
  }
  get done(): boolean {
    return this.pos >= this.timeline.length;
  }
  dropAll(): void {
    this.venue.dropAll();
  }

  private get timeline(): readonly BinanceDelta[] {
    return [...this.capture.deltas, ...this.corruptFrames];
  }

  async start(): Promise<this> {
    for (const [id, text] of this.capture.snapshots) {
      const snap = JSON.parse(text) as Snapshot;
      this.state.set(id, { snap, changed: false, book: [new Map(snap.bids), new Map(snap.asks)] });
    }
    this.venue = await startMockVenue({
      rest: (url) => {
        if (url.pathname === '/api/v3/exchangeInfo') return { status: 200, body: this.capture.exchangeInfo };
        if (url.pathname === '/api/v3/depth') return this.depth(url.searchParams.get('symbol') ?? '');
        return undefined;
      },
      onMessage: (socket, text) => this.onMessage(socket, text),
    });
    return this;
  }

  close(): Promise<void> {
    this.pos = Number.MAX_SAFE_INTEGER;
    return this.venue.close();
  }

  private depth(id: string): { status: number; body: string } {
    this.depthRequests++;
    const s = this.state.get(id);
    if (s === undefined)
      return { status: 400, body: JSON.stringify({ code: -1121, msg: 'Invalid symbol.' }) };
    if (!s.changed) return { status: 200, body: JSON.stringify(s.snap) };
    const sorted = (m: Map<string, string>, dir: number): [string, string][] =>
      [...m].sort((x, y) => (Number(x[0]) - Number(y[0])) * dir);
    return {
      status: 200,
      body: JSON.stringify({
        lastUpdateId: s.snap.lastUpdateId,
        bids: sorted(s.book[0]!, -1),
        asks: sorted(s.book[1]!, 1),
      }),
    };
  }

  private onMessage(socket: WebSocket, text: string): void {
    const msg = JSON.parse(text) as { method?: string; params?: string[]; id?: number };
    if (msg.method !== 'SUBSCRIBE' && msg.method !== 'UNSUBSCRIBE') return;
    let set = this.subs.get(socket);
    if (set === undefined) {
      set = new Set();
      this.subs.set(socket, set);
      socket.on('close', () => this.subs.delete(socket));
    }
    for (const p of msg.params ?? []) {
      const id = p.split('@')[0]!.toUpperCase();
      if (msg.method === 'SUBSCRIBE') set.add(id);
      else set.delete(id);
    }
    if (msg.method === 'SUBSCRIBE') this.subscribeCount++;
    socket.send(JSON.stringify({ result: null, id: msg.id }));
    this.pumping ??= this.pump();
  }

  private async pump(): Promise<void> {
    while (this.pos < this.timeline.length) {
      const i = this.pos++;
      const d = this.timeline[i]!;
      if (i < this.capture.deltas.length) this.applyToVenue(d);
      if (i !== this.dropIndex) {
        for (const [socket, ids] of this.subs)
          if (ids.has(d.id) && socket.readyState === socket.OPEN) socket.send(d.frame);
      }
      await new Promise((r) => setTimeout(r, this.paceMs));
    }
  }

  private applyToVenue(d: BinanceDelta): void {
    const s = this.state.get(d.id);
    if (s === undefined || d.u <= s.snap.lastUpdateId) return;
    s.changed = true;
    s.snap.lastUpdateId = d.u;
    for (const [p, q] of d.b)
      if (Number(q) === 0) s.book[0]!.delete(p);
      else s.book[0]!.set(p, q);
    for (const [p, q] of d.a)
      if (Number(q) === 0) s.book[1]!.delete(p);
      else s.book[1]!.set(p, q);
  }
}

/** The independent fold: each captured snapshot plus its diffs under binance's U/u rules. */
export function foldBinanceCapture(capture: BinanceCapture): Map<string, RawBook> {
  const out = new Map<string, RawBook>();
  const last = new Map<string, number>();
  for (const [id, text] of capture.snapshots) {
    const snap = JSON.parse(text) as Snapshot;
    const book = new RawBook();
    for (const [p, q] of snap.bids) book.set('bids', Number(p), Number(q));
    for (const [p, q] of snap.asks) book.set('asks', Number(p), Number(q));
    out.set(id, book);
    last.set(id, snap.lastUpdateId);
  }
  for (const d of capture.deltas) {
    const book = out.get(d.id);
    const prev = last.get(d.id)!;
    if (book === undefined || d.u <= prev) continue;
    if (d.U > prev + 1) throw new Error(`capture has a gap in ${d.id} at U=${d.U}`);
    for (const [p, q] of d.b) book.set('bids', Number(p), Number(q));
    for (const [p, q] of d.a) book.set('asks', Number(p), Number(q));
    last.set(d.id, d.u);
  }
  return out;
}
