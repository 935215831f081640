import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { sendBatched } from './proof-kit';

interface Diff {
  microtimestamp: string;
  bids: [string, string][];
  asks: [string, string][];
}

/** Bitstamp's 2022 capture: REST order_book snapshots and `diff_order_book_<pair>` frames by pair (ethusd...). */
export interface BitstampCapture {
  readonly snapshots: ReadonlyMap<string, string>;
  readonly diffs: ReadonlyMap<string, readonly string[]>;
}

export function readBitstampCapture(): BitstampCapture {
  const snapshots = new Map<string, string>();
  for (const l of readV1('BITSTAMP.http.0.0'))
    if (l.t === 'http') snapshots.set(/order_book\/(\w+)/.exec(l.url)![1]!, l.data);
  const diffs = new Map<string, string[]>();
  for (const l of readV1('BITSTAMP.ws.1.0')) {
    if (l.t !== 'recv') continue;
    const m = JSON.parse(l.data) as { event?: string; channel?: string };
    if (m.event !== 'data' || !m.channel?.startsWith('diff_order_book_')) continue;
    const pair = m.channel.slice('diff_order_book_'.length);
    const list = diffs.get(pair) ?? [];
    list.push(l.data);
    diffs.set(pair, list);
  }
  return { snapshots, diffs };
}

const micro = (frame: string): bigint => BigInt((JSON.parse(frame) as { data: Diff }).data.microtimestamp);
const snapshotMicro = (text: string): bigint => BigInt((JSON.parse(text) as Diff).microtimestamp);

/**
 * Bitstamp as ccxt meets it: GET /api/v2/order_book/<pair>/ answers the captured snapshot;
 * `{event:"bts:subscribe",data:{channel:"diff_order_book_<pair>"}}` gets the venue's
 * subscription_succeeded, then the captured diffs. The diffs older than the snapshot go at once;
 * the newer ones wait for `gate(pair)`: ccxt asks for the snapshot after 6 diffs and drops every
 * diff that arrives while that request is in flight unless one carries the snapshot's exact
 * microtimestamp (docs/venues.md "Proof on real traffic"), so the mock, like a fast venue, answers
 * before it sends on. The default gate opens once the snapshot was served.
 */
export class BitstampMock {
  private venue!: MockVenue;
  private readonly served = new Set<string>();
  /** Opens the flow of diffs newer than the pair's snapshot. */
  gate: (pair: string) => Promise<void> = (pair) => this.servedOnce(pair);

  constructor(readonly capture: BitstampCapture) {}

  get mock(): MockVenue {
    return this.venue;
  }

  async start(): Promise<this> {
    this.venue = await startMockVenue({
      rest: (url) => {
        const pair = /^\/api\/v2\/order_book\/(\w+)\/$/.exec(url.pathname)?.[1];
        const body = pair === undefined ? undefined : this.capture.snapshots.get(pair);
        if (body === undefined) return undefined;
        this.served.add(pair!);
        return { status: 200, body };
      },
      onMessage: (socket, text) => this.onMessage(socket, text),
    });
    return this;
  }

  private async servedOnce(pair: string): Promise<void> {
    while (!this.served.has(pair)) await new Promise((r) => setTimeout(r, 5));
  }

  private onMessage(socket: WebSocket, text: string): void {
    const msg = JSON.parse(text) as { event?: string; data?: { channel?: string } };
    const channel = msg.data?.channel ?? '';
    if (msg.event !== 'bts:subscribe' || !channel.startsWith('diff_order_book_')) return;
    socket.send(JSON.stringify({ event: 'bts:subscription_succeeded', channel, data: {} }));
    const pair = channel.slice('diff_order_book_'.length);
    const snap = this.capture.snapshots.get(pair);
    const diffs = this.capture.diffs.get(pair) ?? [];
    if (snap === undefined) return;
    const s = snapshotMicro(snap);
    const older = diffs.filter((d) => micro(d) <= s);
    const newer = diffs.filter((d) => micro(d) > s);
    void sendBatched(socket, older, 1)
      .then(() => this.gate(pair))
      .then(() => sendBatched(socket, newer, 1));
  }
}

/** Independent fold: the snapshot, then each diff newer than it (microtimestamp) sets absolute amounts, "0" deletes. */
export function foldBitstamp(capture: BitstampCapture, pair: string): RawBook {
  const book = new RawBook();
  const snap = capture.snapshots.get(pair)!;
  const s = JSON.parse(snap) as Diff;
  for (const [p, q] of s.bids) book.set('bids', Number(p), Number(q));
  for (const [p, q] of s.asks) book.set('asks', Number(p), Number(q));
  for (const frame of capture.diffs.get(pair) ?? []) {
    if (micro(frame) <= snapshotMicro(snap)) continue;
    const d = (JSON.parse(frame) as { data: Diff }).data;
    for (const [p, q] of d.bids) book.set('bids', Number(p), Number(q));
    for (const [p, q] of d.asks) book.set('asks', Number(p), Number(q));
  }
  return book;
}
