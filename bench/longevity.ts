/**
 * Longevity benchmark (issue 10), journal part: bytes on disk per journalled quote. The real API
 * over the embedded log (60 venues x 6 markets x 1,000 levels, answers of about 15 KB) serves a
 * mix of REST quotes and stream frames; the `quotes` topic's files are measured before and after.
 * Once with the default compact journal, once with JOURNAL_RESPONSES=true for comparison; the
 * requestId index's runs count with the topic. Then journal lookups (longevity-journal.ts) and
 * asOf on a 1 h book log (longevity-asof.ts).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { journalIndexDir } from '@app/audit';
import { encodeQuoteRecord } from '@app/journal';
import { parseQuoteRecordLine } from '@app/audit';
import { logSink, type EventLog } from '@app/event-log';
import type { BenchRow } from './bench-row';
import { benchAsOfHour } from './longevity-asof';
import { benchJournalLookups } from './longevity-journal';
import { startLongevityHost, type LongevityHost } from './longevity-host';
import { prng } from './market-gen';

/** Per embedded-log entry besides key and value: length, CRC, offset, flags, key length. */
const FRAME_OVERHEAD = 19;

/** A mix of what clients ask: strategies, sides, bridges, balances, filters. */
const QUERIES = [
  '/route?from=USDT&to=BTC&amountIn=20000&strategy=split_optimal&bridges=',
  '/route?from=BTC&to=USDT&amountIn=0.5',
  '/route?from=USDT&to=ETH&amountIn=50000&strategy=split_capped&maxVenues=2',
  '/route?from=ETH&to=USDC&amountOut=3000&bridges=',
  '/route?from=USDC&to=BTC&amountIn=10000&strategy=split_optimal&includeQuotes=false',
  '/route?from=BTC&to=ETH&amountIn=1&balances=BTC:0.8,venue03.BTC:2&balanceMode=cap',
  '/route?from=USDT&to=BTC&amountIn=1000&exchanges=venue01,venue02,venue07&certified=true',
  '/route?from=ETH&to=USDT&amountIn=3&hopPenaltyBps=2&minLegNotional=100',
];

/** Apparent size of the quotes topic's files: all of them, and the segments (`*.log`) alone. */
function quotesBytes(dataDir: string): { all: number; segments: number } {
  const out = { all: 0, segments: 0 };
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else {
        const size = statSync(path).size;
        out.all += size;
        if (e.name.endsWith('.log')) out.segments += size;
      }
    }
  };
  // The topic is created by its first append.
  if (existsSync(join(dataDir, 'quotes'))) walk(join(dataDir, 'quotes'));
  // The requestId index (16 bytes per entry in sorted runs) is part of what a quote costs.
  if (existsSync(journalIndexDir(dataDir))) walk(journalIndexDir(dataDir));
  return out;
}

/** `count` REST quotes over the mix, `concurrency` at a time; returns the mean response size. */
async function restQuotes(url: string, count: number, concurrency = 8): Promise<number> {
  let next = 0;
  let bytes = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const res = await fetch(url + QUERIES[i % QUERIES.length]!);
      bytes += (await res.arrayBuffer()).byteLength;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return bytes / count;
}

/** Subscribers on a few requests while BTC/USDT books move; resolves with the frames received. */
async function streamFrames(host: LongevityHost, subscribers: number, moves: number): Promise<number> {
  const ws = host.server.url.replace('http', 'ws');
  let frames = 0;
  const sockets = await Promise.all(
    Array.from({ length: subscribers }, (_, i) => {
      const s = new WebSocket(
        `${ws}/stream/route?from=USDT&to=BTC&amountIn=${5000 + (i % 5) * 1000}&bridges=`,
      );
      s.on('message', () => frames++);
      return new Promise<WebSocket>((res) => s.once('open', () => res(s)));
    }),
  );
  const rand = prng(9);
  const seq = new Map(host.books.map((b) => [b.exchangeId, b.sequence]));
  const sink = logSink(host.log);
  for (let k = 0; k < moves; k++) {
    const b = host.books[Math.floor(rand() * host.books.length)]!;
    const sequence = seq.get(b.exchangeId)! + 1;
    seq.set(b.exchangeId, sequence);
    const top = b.asks[0]!;
    const asks: [number, number][] = [[top[0], +(top[1] * (0.5 + rand())).toPrecision(8)]];
    await sink.write([{ ...b, snapshot: false, bids: [], asks, sequence, receivedAt: Date.now() }]);
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 300));
  for (const s of sockets) s.close();
  await new Promise((r) => setTimeout(r, 100));
  return frames;
}

/**
 * The REST records of one partition re-encoded with 10-digit offsets in every partition (a log of
 * billions of records): their mean segment bytes (value, key and framing).
 */
async function bytesAtLongOffsets(log: EventLog): Promise<number> {
  const hwm = await log.highWatermarks('quotes');
  const p = hwm.findIndex((h) => h > 0);
  let bytes = 0;
  let n = 0;
  for (const entry of await log.read('quotes', p, 0, 1000)) {
    const parsed = parseQuoteRecordLine(entry.value);
    if (!parsed.ok || parsed.record.kind !== 'rest') continue;
    const r = parsed.record;
    const long = (xs: readonly number[]): number[] => xs.map(() => 9_999_999_999);
    const positions = { books: long(r.positions.books), venues: long(r.positions.venues) };
    bytes += Buffer.byteLength(encodeQuoteRecord({ ...r, positions }, null)) + Buffer.byteLength(entry.key);
    bytes += FRAME_OVERHEAD;
    n++;
  }
  return bytes / n;
}

export async function benchLongevity(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const row = (metric: string, value: number, unit: string): void => {
    rows.push({ scenario: 'longevity', metric, value, unit });
  };
  for (const full of [false, true]) {
    const host = await startLongevityHost({ journalResponses: full });
    try {
      const mode = full ? 'responses' : 'default';
      const quotes = full ? 400 : 4000;
      const before = quotesBytes(host.dataDir);
      const responseBytes = await restQuotes(host.server.url, quotes);
      await host.server.journal.flush();
      await host.server.indexJournal();
      const afterRest = quotesBytes(host.dataDir);
      row(`journal ${mode}: disk bytes/REST quote`, (afterRest.all - before.all) / quotes, 'B');
      if (!full) {
        row(
          'journal default: segment bytes/REST quote',
          (afterRest.segments - before.segments) / quotes,
          'B',
        );
        row('REST response mean size', responseBytes, 'B');
      }
      const frames = await streamFrames(host, 20, 60);
      await host.server.journal.flush();
      await host.server.indexJournal();
      const afterStream = quotesBytes(host.dataDir);
      row(
        `journal ${mode}: disk bytes/stream frame (ticks incl.)`,
        (afterStream.all - afterRest.all) / frames,
        'B',
      );
      if (!full) {
        row('journal default: frames measured', frames, 'count');
        row(
          'journal default: segment bytes/REST quote, 10-digit offsets',
          await bytesAtLongOffsets(host.log),
          'B',
        );
      }
    } finally {
      await host.close();
    }
  }
  await benchJournalLookups(row);
  await benchAsOfHour(row);
  return rows;
}
