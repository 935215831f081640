import type { WebSocket } from 'ws';
import { readV1 } from '../../venues/captures';
import { startMockVenue, type MockVenue } from '../../venues/mock-server';

/** Symbols of the binance capture's exchangeInfo the synthetic venues quote (id, unified). */
export const SYNTHETIC_SYMBOLS: readonly (readonly [string, string])[] = [
  ['NKNUSDT', 'NKN/USDT'],
  ['LRCBTC', 'LRC/BTC'],
  ['BLZETH', 'BLZ/ETH'],
];

interface Book {
  updateId: number;
  readonly mid: number;
  readonly bids: Map<string, string>;
  readonly asks: Map<string, string>;
}

/**
 * A binance-protocol spot venue that never ends (ccxt's binance and binanceus speak it): the
 * captured exchangeInfo for markets, GET /api/v3/depth for the current book, and a depthUpdate
 * diff per symbol every `everyMs` on every socket subscribed to it, with U/u update ids that run
 * on from the book's lastUpdateId, so a client that re-subscribes (another ingestor taking the
 * venue over) syncs as on the real venue. Prices walk deterministically (seeded).
 */
export class SyntheticBinance {
  private venue!: MockVenue;
  private readonly books = new Map<string, Book>();
  private readonly subs = new Map<WebSocket, Set<string>>();
  private timer: NodeJS.Timeout | null = null;
  private seed: number;
  /** depthUpdate frames sent, all sockets together. */
  sent = 0;

  constructor(
    seed: number,
    private readonly everyMs = 50,
  ) {
    this.seed = seed;
  }

  get http(): string {
    return this.venue.http;
  }
  get ws(): string {
    return this.venue.ws;
  }
  /** Sockets open now (an ingestor's connection). */
  get sockets(): number {
    return this.venue.sockets.size;
  }

  async start(): Promise<this> {
    const info = readV1('BINANCE.0').find((l) => l.t === 'http');
    if (info === undefined || info.t !== 'http') throw new Error('BINANCE.0 holds no exchangeInfo');
    const mids: Record<string, number> = { NKNUSDT: 0.4, LRCBTC: 0.00001, BLZETH: 0.0001 };
    for (const [id] of SYNTHETIC_SYMBOLS) {
      const mid = mids[id] ?? 1;
      const book: Book = { updateId: 1000, mid, bids: new Map(), asks: new Map() };
      for (let i = 1; i <= 10; i++) {
        book.bids.set(price(mid * (1 - i / 1000)), '100');
        book.asks.set(price(mid * (1 + i / 1000)), '100');
      }
      this.books.set(id, book);
    }
    this.venue = await startMockVenue({
      rest: (url) => {
        if (url.pathname === '/api/v3/exchangeInfo') return { status: 200, body: info.data };
        if (url.pathname === '/api/v3/depth') return this.depth(url.searchParams.get('symbol') ?? '');
        return undefined;
      },
      onMessage: (socket, text) => this.onMessage(socket, text),
    });
    this.timer = setInterval(() => this.tick(), this.everyMs);
    return this;
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    await this.venue.close();
  }

  private depth(id: string): { status: number; body: string } {
    const b = this.books.get(id);
    if (b === undefined)
      return { status: 400, body: JSON.stringify({ code: -1121, msg: 'Invalid symbol.' }) };
    const side = (m: Map<string, string>, dir: number): [string, string][] =>
      [...m].sort((x, y) => (Number(x[0]) - Number(y[0])) * dir);
    return {
      status: 200,
      body: JSON.stringify({ lastUpdateId: b.updateId, bids: side(b.bids, -1), asks: side(b.asks, 1) }),
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
    socket.send(JSON.stringify({ result: null, id: msg.id }));
  }

  /** One diff per symbol: a level of each side changes size. */
  private tick(): void {
    for (const [id, b] of this.books) {
      const level = 1 + (this.next() % 10);
      const bid: [string, string] = [price(b.mid * (1 - level / 1000)), String(50 + (this.next() % 100))];
      const ask: [string, string] = [price(b.mid * (1 + level / 1000)), String(50 + (this.next() % 100))];
      b.bids.set(bid[0], bid[1]);
      b.asks.set(ask[0], ask[1]);
      const U = b.updateId + 1;
      b.updateId += 1;
      const frame = JSON.stringify({
        e: 'depthUpdate',
        E: Date.now(),
        s: id,
        U,
        u: b.updateId,
        b: [bid],
        a: [ask],
      });
      for (const [socket, ids] of this.subs)
        if (ids.has(id) && socket.readyState === socket.OPEN) {
          socket.send(frame);
          this.sent++;
        }
    }
  }

  /** A 31-bit LCG: the same seed, the same walk. */
  private next(): number {
    this.seed = (this.seed * 1103515245 + 12345) & 0x7fffffff;
    return this.seed >>> 8;
  }
}

function price(p: number): string {
  return p.toPrecision(8);
}
