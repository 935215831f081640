import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findQuote, replayQuote } from '@app/audit';
import type { BookView } from '@app/books';
import type { EventRecord } from '@app/events';
import { feedReplay } from '@app/recordings';
import { logSink } from '@app/event-log';
import { generateMarket } from '@app/synth';
import { versionedFold } from '@test/support';
import { startApiServer } from '../../apps/api/src/bootstrap';
import { closeHost, openFeed, waitCaughtUp, type ApiHost } from '../../apps/api/src/compose';
import { testBrokers } from '../kafka/broker';
import { StepClock } from '../replay/support/journal-scenario';
import { call } from './support/http';
import { BASE_CONFIG } from './support/server';

// Issue 21, as a user meets it: recording A is served, then an older recording B is fed into the
// same log with the replay path `npm start -- --replay B` uses. asOf at instants inside B, inside A
// and between them must give each book as an independent versioned fold says, and a quote
// journalled before B came must still replay to the same bytes. On the embedded log and on Kafka.
const T = 1_786_400_000_000;
const VENUES = 6;
const SYMBOLS = ['BTC/USDT', 'ETH/USDT'];
const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };

const recordingA = (): EventRecord[] => [
  ...generateMarket({ seed: 21, startAt: T + 60_000, durationMs: 8_000, venues: VENUES }),
];
const recordingB = (): EventRecord[] => [
  ...generateMarket({ seed: 12, startAt: T, durationMs: 8_000, venues: VENUES }),
];

/** The book as GET /orderbook answers it (spec 2.7). */
function bookJson(b: BookView): unknown {
  const side = (s: BookView['bids']) =>
    Array.from({ length: s.count }, (_, i) => ({ price: s.price(i), amount: s.amount(i) }));
  return {
    exchangeId: b.exchangeId,
    symbol: b.symbol,
    bids: side(b.bids),
    asks: side(b.asks),
    exchangeTimestamp: b.exchangeTimestamp,
    receivedAt: b.receivedAt,
    sequence: b.sequence,
  };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function recordingFile(records: readonly EventRecord[], name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'older-recording-'));
  dirs.push(dir);
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

async function feed(host: ApiHost, path: string): Promise<void> {
  const summary = await feedReplay({
    path,
    speed: 'max',
    sink: logSink(host.log),
    onFed: () => undefined,
    onSkip: (s) => expect.fail(s.problem),
  });
  expect(summary.skipped).toBe(0);
  await waitCaughtUp(host);
}

async function scenario(host: ApiHost): Promise<void> {
  const a = recordingA();
  const b = recordingB();
  const endA = a[a.length - 1]!.receivedAt;
  const clock = new StepClock(endA);
  await feed(host, recordingFile(a, 'a'));
  const server = await startApiServer({
    config: { ...BASE_CONFIG, host: '127.0.0.1' },
    feed: host.feed,
    log: host.log,
    clock,
    logger: false,
  });
  host.server = server;
  const route = 'from=BTC&to=USDT&amountIn=2&strategy=split_optimal&bridges=USDC';
  // Journalled while only A is in the log: a live quote and one asOf inside A.
  const before = [
    await call(server.url, `/route?${route}`),
    await call(server.url, `/route?${route}&asOf=${T + 64_000}`),
  ];
  for (const r of before) expect(r.status).toBe(200);

  await feed(host, recordingFile(b, 'b'));
  const log = [...a, ...b];
  const instants = [
    ['inside B', T + 4_000],
    ['between B and A', T + 30_000],
    ['inside A', T + 64_000],
    ['inside A, later', T + 67_500],
  ] as const;
  let compared = 0;
  for (const [where, t] of instants) {
    const expected = versionedFold(log, t);
    for (let v = 0; v < VENUES; v++)
      for (const symbol of SYMBOLS) {
        const exchangeId = `sim${String(v).padStart(2, '0')}`;
        const r = await call(server.url, `/orderbook/${exchangeId}/${encodeURIComponent(symbol)}?asOf=${t}`);
        const want = expected.book(exchangeId, symbol);
        if (want === undefined || want.sequence < 0) {
          expect(r.status, `${where}: ${exchangeId} ${symbol}`).toBe(404);
          continue;
        }
        expect(r.status, `${where}: ${exchangeId} ${symbol}`).toBe(200);
        expect(r.body, `${where}: ${exchangeId} ${symbol}`).toEqual(bookJson(want));
        compared++;
      }
    // A quote at the instant is solved on those books (its legs' prices are theirs).
    const q = await call(server.url, `/route?${route}&asOf=${t}`);
    expect(q.status).toBe(200);
    expect(q.body.calculatedAt).toBe(t);
  }
  expect(compared).toBeGreaterThan(VENUES * SYMBOLS.length * 3);
  // Inside A the books are A's, not B's: the rule before (a per-book cut) answered with B's.
  const atA = versionedFold(log, T + 64_000).book('sim00', 'BTC/USDT')!;
  const aOnly = versionedFold(a, T + 64_000).book('sim00', 'BTC/USDT')!;
  expect(bookJson(atA)).toEqual(bookJson(aOnly));

  await server.journal.flush();
  for (const r of before) {
    const found = await findQuote(host.log, r.headers.get('x-request-id')!);
    const replay = await replayQuote(host.log, found!.record);
    expect(replay.identical, `replay of ${r.headers.get('x-request-id')}`).toBe(true);
    expect(JSON.parse(replay.body)).toEqual(r.body);
  }
}

describe('asOf after an older recording is fed into a served log', () => {
  it('embedded log: books inside B, between, inside A equal an independent versioned fold; quotes from before still replay', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'older-recording-log-'));
    dirs.push(dataDir);
    const host = await openFeed({ kafkaBrokers: null, dataDir }, QUIET);
    try {
      await scenario(host);
    } finally {
      await closeHost(host);
    }
  }, 120_000);

  it('Kafka (real broker): the same', async () => {
    const brokers = (await testBrokers()).split(',');
    const dataDir = mkdtempSync(join(tmpdir(), 'older-recording-kafka-'));
    dirs.push(dataDir);
    const host = await openFeed(
      { kafkaBrokers: brokers, dataDir, topicPrefix: `older-${randomUUID().slice(0, 8)}` },
      QUIET,
    );
    try {
      await scenario(host);
    } finally {
      await closeHost(host);
    }
  }, 180_000);
});
