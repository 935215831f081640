import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { BitfinexBook, textFrame, type BitfinexLevel } from './bitfinex-book';

/** A market the flood venue lists: Bitfinex's id (tBTCUSD), the unified pair and a mid price. */
export interface FloodMarket {
  readonly id: string;
  readonly base: string;
  readonly quote: string;
  readonly mid: number;
}

export interface FloodVenue {
  /** ws://127.0.0.1:<port> (ccxt's `urls.api.ws.public` is `${ws}/ws/2`). */
  readonly ws: string;
  /** Changes sent per market id since start. */
  readonly sent: ReadonlyMap<string, number>;
  /**
   * Work out the next `changes` changes of market `id`, their checksums and their frames for the
   * sockets watching it now, so that a flood costs this process one socket write per tick.
   * Every later change of the book (the steady ones too) is taken from these, in order.
   */
  prepare(id: string, changes: number): void;
  /** Change book `id` `rate` times a second for `ms`, written every `everyMs`; resolves with the changes sent. */
  flood(id: string, rate: number, ms: number, everyMs?: number): Promise<number>;
  /** Every book as served now: bids and asks best first, [price, count, amount]. */
  books(): Record<string, { bids: BitfinexLevel[]; asks: BitfinexLevel[] }>;
  close(): Promise<void>;
}

interface Change {
  readonly level: BitfinexLevel;
  readonly sum: number;
  /** The change and its checksum framed for the channel id they were prepared for. */
  readonly framed: Buffer | null;
}

/**
 * A local venue speaking Bitfinex's public socket v2 for the `book` channel (P0, the `len` the
 * client asks, 25 or 100): `info` on connect, `conf` acknowledged (flag 131072 turns on a
 * checksum frame after every change, as ccxt asks), `subscribe` answered with `subscribed` and the
 * book's levels; then one frame per change, as Bitfinex sends them. Every book changes
 * `baseRate` times a second; `flood` makes one change far faster.
 */
export async function startFloodVenue(markets: readonly FloodMarket[], baseRate = 5): Promise<FloodVenue> {
  const books = new Map(markets.map((m, i) => [m.id, new BitfinexBook(m.mid, 42 + i)]));
  const sent = new Map(markets.map((m) => [m.id, 0]));
  /** Per socket: market id -> channel id; and the sockets that asked for checksums. */
  const channels = new Map<WebSocket, Map<string, number>>();
  const checksummed = new Set<WebSocket>();
  let prepared: { id: string; chan: number; changes: Change[]; next: number } | null = null;
  let nextChan = 100;
  const timers = new Set<NodeJS.Timeout>();

  const frames = (chan: number, c: Omit<Change, 'framed'>, cs: boolean): Buffer =>
    Buffer.concat([
      textFrame(`[${chan},${JSON.stringify(c.level)}]`),
      ...(cs ? [textFrame(`[${chan},"cs",${c.sum}]`)] : []),
    ]);

  const nextChange = (id: string): Change => {
    if (prepared?.id === id && prepared.next < prepared.changes.length)
      return prepared.changes[prepared.next++]!;
    const book = books.get(id)!.fork();
    const level = book.change();
    return { level, sum: book.checksum(), framed: null };
  };

  /** Apply `changes` of book `id` and write them to every socket watching it, one write each. */
  const send = (id: string, changes: readonly Change[]): void => {
    if (changes.length === 0) return;
    const book = books.get(id)!;
    for (const c of changes) book.set(c.level);
    sent.set(id, sent.get(id)! + changes.length);
    for (const [socket, chans] of channels) {
      const chan = chans.get(id);
      if (chan === undefined || socket.readyState !== socket.OPEN) continue;
      const cs = checksummed.has(socket);
      const fast = prepared?.id === id && prepared.chan === chan && cs;
      const bytes = changes.map((c) => (fast && c.framed !== null ? c.framed : frames(chan, c, cs)));
      // One write of many frames: the socket ws owns, after anything ws itself has queued.
      (socket as unknown as { _socket: { write(b: Buffer): void } })._socket.write(Buffer.concat(bytes));
    }
  };

  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (socket) => {
    channels.set(socket, new Map());
    socket.on('close', () => {
      channels.delete(socket);
      checksummed.delete(socket);
    });
    socket.send(JSON.stringify({ event: 'info', version: 2, platform: { status: 1 } }));
    socket.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      if (m.event === 'conf') {
        if ((Number(m.flags) & 131072) !== 0) checksummed.add(socket);
        return socket.send(JSON.stringify({ event: 'conf', status: 'OK', flags: m.flags }));
      }
      const symbol = String(m.symbol);
      const book = books.get(symbol);
      if (m.event !== 'subscribe' || m.channel !== 'book' || book === undefined) return;
      const len = Number(m.len ?? 25) === 100 ? 100 : 25;
      const chanId = nextChan++;
      channels.get(socket)!.set(symbol, chanId);
      const answer = { event: 'subscribed', channel: 'book', chanId, symbol, prec: 'P0', freq: 'F0' };
      socket.send(JSON.stringify({ ...answer, len: String(len), pair: symbol.slice(1) }));
      const { bids, asks } = book.sides(len);
      socket.send(JSON.stringify([chanId, [...bids, ...asks]]));
    });
  });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const steady = setInterval(() => {
    for (const id of books.keys())
      send(
        id,
        Array.from({ length: Math.max(1, Math.round(baseRate / 10)) }, () => nextChange(id)),
      );
  }, 100);
  timers.add(steady);

  return {
    ws: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    sent,
    prepare(id, n) {
      const book = books.get(id)!.fork();
      const chan = [...channels.values()].find((c) => c.has(id))?.get(id) ?? -1;
      const changes = Array.from({ length: n }, () => {
        const level = book.change();
        const c = { level, sum: book.checksum() };
        return { ...c, framed: chan < 0 ? null : frames(chan, c, true) };
      });
      prepared = { id, chan, changes, next: 0 };
    },
    flood(id, rate, ms, everyMs = 1) {
      const t0 = performance.now();
      let done = 0;
      return new Promise<number>((resolve) => {
        const tick = setInterval(() => {
          const elapsed = Math.min(ms, performance.now() - t0);
          const due = Math.floor((rate * elapsed) / 1000);
          send(
            id,
            Array.from({ length: due - done }, () => nextChange(id)),
          );
          done = due;
          if (elapsed < ms) return;
          clearInterval(tick);
          timers.delete(tick);
          resolve(done);
        }, everyMs);
        timers.add(tick);
      });
    },
    books: () => Object.fromEntries([...books].map(([id, b]) => [id, b.sides()])),
    async close() {
      for (const t of timers) clearInterval(t);
      for (const s of channels.keys()) s.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
