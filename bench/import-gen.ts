/**
 * Large incremental_book_L2 files in tardis.dev's format for `npm run bench -- import`, each shaped
 * like a busy spot book's day (binance BTCUSDT): a 1,000-level snapshot per side, then messages of
 * 1 to 20 rows sharing a local timestamp 1-40 ms apart, three rows in ten removing a level, the
 * mid moving a tick now and then (levels it passes are removed, so the book never crosses), and a
 * reconnect snapshot every 400,000 messages. Seeded: the same size gives the same bytes.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { seeded } from '@app/synth';

const HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
const START_US = 1_709_251_200_000_000; // 2024-03-01T00:00:00Z
const TICK_CENTS = 1; // prices in cents: 0.01 apart

const price = (cents: number): string => (cents / 100).toFixed(2);

/** One generated book: its tardis.dev exchange and symbol, and its seed. */
export interface GeneratedBook {
  readonly exchange: string;
  readonly symbol: string;
  readonly seed: number;
}

/** Writes about `bytes` of uncompressed CSV, gzipped (level 6, gzip's default), to `path`; returns its rows. */
export async function generateTardisL2(path: string, bytes: number, book: GeneratedBook): Promise<number> {
  const random = seeded(book.seed);
  const key = `${book.exchange},${book.symbol}`;
  const gzip = createGzip({ level: 6 });
  const file = createWriteStream(path);
  gzip.pipe(file);
  const amount = (): string => (random() < 0.3 ? '0' : (random() * 5).toFixed(6).replace(/\.?0+$/, ''));
  let mid = 6_500_000; // 65,000.00 in cents
  let local = START_US;
  let written = 0;
  let rows = 0;
  let chunk: string[] = [];
  const flush = async (): Promise<void> => {
    const text = `${chunk.join('\n')}\n`;
    chunk = [];
    written += text.length;
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  const snapshot = async (): Promise<void> => {
    const head = `${key},${local - 1500},${local},true`;
    for (let i = 0; i < 1000; i++)
      chunk.push(`${head},ask,${price(mid + TICK_CENTS * (i + 1))},${(random() * 5 + 0.001).toFixed(6)}`);
    for (let i = 0; i < 1000; i++)
      chunk.push(`${head},bid,${price(mid - TICK_CENTS * i)},${(random() * 5 + 0.001).toFixed(6)}`);
    rows += 2000;
    await flush();
  };
  chunk.push(HEADER);
  await snapshot();
  for (let message = 1; written < bytes; message++) {
    local += 1000 + Math.floor(random() * 39_000);
    if (message % 400_000 === 0) {
      await snapshot();
      continue;
    }
    const head = `${key},${local - 2000 - Math.floor(random() * 40_000)},${local},false`;
    if (random() < 0.02) {
      // The mid moves a tick: the level it passes over leaves its side.
      const up = random() < 0.5;
      chunk.push(up ? `${head},ask,${price(mid + TICK_CENTS)},0` : `${head},bid,${price(mid)},0`);
      mid += up ? TICK_CENTS : -TICK_CENTS;
      rows++;
    }
    const n = 1 + Math.floor(random() * random() * 20);
    for (let i = 0; i < n; i++) {
      const depth = Math.floor(random() * random() * 400);
      const bid = random() < 0.5;
      const p = bid ? mid - TICK_CENTS * depth : mid + TICK_CENTS * (depth + 1);
      chunk.push(`${head},${bid ? 'bid' : 'ask'},${price(p)},${amount()}`);
    }
    rows += n;
    if (chunk.length > 20_000) await flush();
  }
  await flush();
  gzip.end();
  await once(file, 'close');
  return rows;
}
