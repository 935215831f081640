import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { WebSocketServer, type WebSocket } from 'ws';
import { bookOf, changeOf, type Level, type ServedBook } from './books';
import type { MarketState, Session, Speaker, VenueView } from './speaker';

/**
 * How the venue behaves. `good` serves books and a change to each every `updateEveryMs`; the
 * others are the chaos suite's faults (docs/venues.md "Chaos suite").
 */
export type Fault =
  | 'good'
  | 'refuse'
  | 'drop-on-subscribe'
  | 'drop-after-first-book'
  | 'silent'
  | 'empty-first-book'
  | 'crossed-first-book'
  | 'rest-429'
  | 'rest-5xx';

export const FAULTS: readonly Fault[] = [
  'refuse',
  'drop-on-subscribe',
  'drop-after-first-book',
  'silent',
  'empty-first-book',
  'crossed-first-book',
  'rest-429',
  'rest-5xx',
];

/** What one venue's server counted (tests assert on these). */
export interface ChaosCounts {
  connections: number;
  subscribes: number;
  booksServed: number;
  restCalls: number;
  rest429: number;
  rest5xx: number;
}

interface LiveSession extends Session {
  readonly socket: WebSocket;
  readonly subscribed: Set<string>;
  /** Markets this connection got a bad first book for. */
  readonly bad: Set<string>;
  booksSent: number;
}

/**
 * A local venue for one speaker: node http + ws on 127.0.0.1 (random port). The speaker turns
 * client frames into subscriptions and books into the venue's frames; this server decides, by
 * the current fault, what each subscription gets.
 */
export class ChaosVenue implements VenueView {
  fault: Fault = 'good';
  /** Which markets a bad-first-book fault hits: all, or only the first subscribed on a connection. */
  badBookScope: 'first-on-connection' | 'all' = 'first-on-connection';
  /** Only books of these market ids get the bad first book (null: any). */
  badBookMarkets: ReadonlySet<string> | null = null;
  /** Markets whose next change is sent crossed (a corrupt frame, not the venue's true book). */
  readonly corruptNext = new Set<string>();
  /**
   * Markets whose next change reaches the clients with one level wrong (the second bid's amount,
   * a level later changes leave alone), what a lost or garbled frame does: from then on the
   * client's book and the venue's differ, and every checksum the venue sends (of its true book)
   * disagrees with the client's, until the client resubscribes and gets the true book.
   */
  readonly divergeNext = new Set<string>();
  /** Seconds a 429 asks the client to wait. */
  retryAfterSec = 1;
  readonly counts: ChaosCounts = {
    connections: 0,
    subscribes: 0,
    booksServed: 0,
    restCalls: 0,
    rest429: 0,
    rest5xx: 0,
  };
  readonly markets = new Map<string, MarketState>();
  readonly received: string[] = [];
  /** When each REST request arrived (performance.now()) and what it was answered. */
  readonly restLog: { readonly at: number; readonly status: number }[] = [];
  private readonly sessions = new Set<LiveSession>();
  private readonly server = createServer((req, res) => this.onRest(req, res));
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly rawSockets = new Set<Socket>();
  private ticker: NodeJS.Timeout | null = null;
  private port = 0;

  constructor(
    readonly speaker: Speaker,
    private readonly updateEveryMs = 250,
  ) {
    for (const m of speaker.markets) this.markets.set(m.id, { market: m, book: bookOf(m), seq: 1000 });
  }

  get http(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get ws(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  /** The VENUES_CONFIG entry's ccxt options pointing every URL of the venue here. */
  ccxtOptions(): Record<string, unknown> {
    return this.speaker.ccxt({ http: this.http, ws: this.ws, venue: this });
  }

  async start(): Promise<this> {
    this.server.on('connection', (s: Socket) => {
      this.rawSockets.add(s);
      s.on('close', () => this.rawSockets.delete(s));
    });
    this.server.on('upgrade', (req, socket, head) => {
      if (this.fault === 'refuse') {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, req.url ?? '/'));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.ticker = setInterval(() => this.tick(), this.updateEveryMs);
    return this;
  }

  /** Drop every open socket without a close handshake. */
  dropAll(): void {
    for (const s of this.sessions) s.socket.terminate();
  }

  async close(): Promise<void> {
    if (this.ticker !== null) clearInterval(this.ticker);
    for (const s of this.sessions) s.socket.terminate();
    for (const s of this.rawSockets) s.destroy();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The book the venue serves now for `id` (after any change), as levels. */
  bookOf(id: string): ServedBook {
    return this.markets.get(id)!.book;
  }

  /** The market state of `id` (speakers read and stamp sequences through it). */
  state(id: string): MarketState {
    const m = this.markets.get(id);
    if (m === undefined) throw new Error(`${this.speaker.id} mock: no market ${id}`);
    return m;
  }

  /** A full book for a REST snapshot or a first ws book, shaped by the fault. */
  firstBook(id: string, first: boolean): ServedBook {
    const book = this.state(id).book;
    const hit = first && (this.badBookMarkets === null || this.badBookMarkets.has(id));
    if (hit && this.fault === 'empty-first-book') return { bids: book.bids, asks: [] };
    if (hit && this.fault === 'crossed-first-book') {
      const bestAsk = book.asks[0]![0];
      return { bids: [[bestAsk * 1.01, 1] as Level, ...book.bids], asks: book.asks };
    }
    return book;
  }

  private onConnection(socket: WebSocket, path: string): void {
    this.counts.connections++;
    const session: LiveSession = {
      socket,
      path,
      subscribed: new Set(),
      bad: new Set(),
      booksSent: 0,
      data: {},
      send: (frame) => this.send(socket, frame),
      subscribe: (ids) => this.subscribe(session, ids),
      unsubscribe: (ids) => {
        for (const id of ids) session.subscribed.delete(id);
      },
      book: (id) => this.firstBook(id, session.bad.has(id)),
      venue: this,
    };
    this.sessions.add(session);
    socket.on('close', () => this.sessions.delete(session));
    socket.on('error', () => this.sessions.delete(session));
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      this.received.push(text);
      let msg: unknown = text;
      try {
        msg = JSON.parse(text);
      } catch {
        // Some venues send plain text pings.
      }
      this.speaker.onFrame(session, msg, text);
    });
    this.speaker.onConnection?.(session);
  }

  private send(socket: WebSocket, frame: unknown): void {
    if (socket.readyState !== socket.OPEN) return;
    if (frame instanceof Uint8Array) return socket.send(frame);
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    if (this.speaker.binary === 'gzip') socket.send(gzipSync(text));
    else if (this.speaker.binary === 'deflate') socket.send(deflateRawSync(text));
    else socket.send(text);
  }

  /** The speaker saw a subscription to `ids` on this connection: serve them according to the fault. */
  private subscribe(session: LiveSession, ids: readonly string[]): void {
    this.counts.subscribes++;
    if (this.fault === 'drop-on-subscribe') {
      session.socket.terminate();
      return;
    }
    for (const id of ids) {
      if (!this.markets.has(id)) continue;
      session.subscribed.add(id);
      if (this.fault === 'silent') continue;
      const first = this.badBookScope === 'all' || session.booksSent === 0;
      const book = this.firstBook(id, first);
      if (book !== this.state(id).book) session.bad.add(id);
      session.booksSent++;
      this.counts.booksServed++;
      for (const f of this.speaker.snapshot(session, id, book)) session.send(f);
      if (this.fault === 'drop-after-first-book') {
        // Let the frame reach the client first.
        setTimeout(() => session.socket.terminate(), 20);
        return;
      }
    }
  }

  /** Change one level of each subscribed book, and send the change to the sessions that watch it. */
  private tick(): void {
    if (this.fault === 'silent') return;
    for (const state of this.markets.values()) {
      const id = state.market.id;
      if (this.corruptNext.delete(id)) {
        this.sendCrossed(state);
        continue;
      }
      const change = changeOf(state);
      state.seq++;
      const sent = this.divergeNext.delete(id) ? diverged(state.book, change) : change;
      for (const s of this.sessions) {
        if (!s.subscribed.has(id) || s.booksSent === 0) continue;
        for (const f of this.speaker.delta(s, id, sent)) s.send(f);
      }
    }
  }

  /**
   * One corrupt change on every live subscription of `state`'s market: a bid above the best ask.
   * Whole-book venues get the whole book with it. The venue's true book is left as it was.
   */
  private sendCrossed(state: MarketState): void {
    const id = state.market.id;
    const cross: [number, number] = [state.book.asks[0]![0] * 1.01, 1];
    const corrupt = { bids: [cross, ...state.book.bids], asks: state.book.asks };
    state.seq++;
    for (const s of this.sessions) {
      if (!s.subscribed.has(id) || s.booksSent === 0) continue;
      const session = s as { book: (x: string) => ServedBook };
      const book = session.book;
      // A whole-book speaker reads the session's book: give it the corrupt one for this frame.
      session.book = (x) => (x === id ? corrupt : book(x));
      try {
        for (const f of this.speaker.delta(s, id, { bids: [cross], asks: [] })) s.send(f);
      } finally {
        session.book = book;
      }
    }
  }

  private onRest(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    this.counts.restCalls++;
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      this.restLog.push({ at: performance.now(), status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (this.fault === 'refuse') {
      req.socket.destroy();
      return;
    }
    if (this.fault === 'rest-429') {
      this.counts.rest429++;
      return reply(
        429,
        { code: -1003, msg: 'Too many requests' },
        { 'retry-after': String(this.retryAfterSec) },
      );
    }
    if (this.fault === 'rest-5xx') {
      this.counts.rest5xx++;
      return reply(503, { error: 'Service Unavailable' });
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const out = this.speaker.rest?.({ method: req.method ?? 'GET', url, body }, this);
      if (out === undefined) return reply(404, { error: `no mock route ${url.pathname}` });
      reply(out.status ?? 200, out.body);
    });
  }
}

/** `change` as sent with the second bid's amount wrong too (the venue's book keeps the true one). */
function diverged(
  book: ServedBook,
  change: { bids: Level[]; asks: Level[] },
): { bids: Level[]; asks: Level[] } {
  const [price, amount] = book.bids[1]!;
  return { bids: [...change.bids, [price, amount + 0.25]], asks: change.asks };
}
