import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Level } from './row-fold';

export const FIXTURES = resolve(__dirname, '..', 'fixtures');
/** bitmex XBTUSD and deribit BTC-PERPETUAL book changes (and trades), 2019-04-01 00:00-00:01. */
export const TWO_VENUES = resolve(FIXTURES, 'tardis-node/bitmex-deribit_2019-04-01T0000_normalized.jsonl.gz');
/** The same bitmex changes with the snapshots tardis-node computed from them. */
export const COMPUTED = resolve(FIXTURES, 'tardis-node/bitmex_2019-04-01T0000_normalized-computed.jsonl.gz');

/** A normalized message as tardis-machine writes it (the fields the tests read). */
export interface Message {
  readonly type: string;
  readonly exchange: string;
  readonly symbol: string;
  readonly name?: string;
  readonly isSnapshot?: boolean;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
  readonly timestamp: string;
  readonly localTimestamp: string;
}

export function readMessages(file: string): Message[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Message);
}

/** An ISO time with microseconds, as epoch microseconds (written apart from the import's parser). */
export function micros(iso: string): number {
  const [whole, fraction = ''] = iso.replace('Z', '').split('.');
  return Date.parse(`${whole!}Z`) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

const L2_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';

/**
 * The incremental_book_L2 CSV of one exchange's book_change messages, laid out as tardis.dev's
 * CSV export lays out its normalized data: one row per level, the message's timestamps in
 * microseconds, is_snapshot from isSnapshot.
 */
export function l2Csv(messages: readonly Message[], exchange: string): string {
  const rows = [L2_HEADER];
  for (const m of messages) {
    if (m.type !== 'book_change' || m.exchange !== exchange) continue;
    const head = `${m.exchange},${m.symbol},${micros(m.timestamp)},${micros(m.localTimestamp)},${m.isSnapshot === true}`;
    for (const l of m.bids) rows.push(`${head},bid,${l.price},${l.amount}`);
    for (const l of m.asks) rows.push(`${head},ask,${l.price},${l.amount}`);
  }
  return `${rows.join('\n')}\n`;
}

/** A book_snapshot_N CSV of book_snapshot messages named `name`: asks[i] then bids[i] per level, empty past the book. */
export function snapshotCsv(messages: readonly Message[], name: string, depth: number): string {
  const cols = ['exchange', 'symbol', 'timestamp', 'local_timestamp'];
  for (let i = 0; i < depth; i++)
    cols.push(`asks[${i}].price`, `asks[${i}].amount`, `bids[${i}].price`, `bids[${i}].amount`);
  const rows = [cols.join(',')];
  for (const m of messages) {
    if (m.type !== 'book_snapshot' || m.name !== name) continue;
    const cells = [m.exchange, m.symbol, String(micros(m.timestamp)), String(micros(m.localTimestamp))];
    for (let i = 0; i < depth; i++) {
      const a = m.asks[i];
      const b = m.bids[i];
      cells.push(
        a ? String(a.price) : '',
        a ? String(a.amount) : '',
        b ? String(b.price) : '',
        b ? String(b.amount) : '',
      );
    }
    rows.push(cells.join(','));
  }
  return `${rows.join('\n')}\n`;
}

/** The --symbols file the tests use for the two derivatives venues (see fixtures/README.md). */
export const SYMBOLS = {
  exchanges: { bitmex: 'bitmex' },
  symbols: {
    bitmex: { XBTUSD: 'BTC/USD' },
    deribit: { 'BTC-PERPETUAL': 'BTC/USD' },
    'binance-futures': { BTCUSDT: 'BTC/USDT' },
  },
};
