import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventRecord } from '@app/events';
import { encodeQuoteRecord, parseQuoteRecordLine, type QuoteRecord } from '@app/journal';
import { EmbeddedLog, logSink } from '@app/log';
import { ROUTE_DEFAULTS } from '@app/request';
import { solve, type RouteRequest, type RoutingConfig } from '@app/routing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuoteJournal } from '@app/audit';
import { createBookFeed, type LogBookFeed } from '@app/feed';
import { generateMarket } from '@app/synth';
import { quoteCommand } from '../../apps/replay/src/quote/quote-command';
import { findQuote } from '@app/audit';
import { replayQuote } from '@app/audit';

const ROUTING: RoutingConfig = { staleBookMs: 10_000, stalenessPenaltyBps: 1, defaultTakerFeeRate: 0.001 };
const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };
const START = 1_786_300_000_000;

const base: Omit<RouteRequest, 'requestId'> = {
  ...ROUTE_DEFAULTS,
  from: 'BTC',
  to: 'USDT',
  amount: 3,
  strategy: 'split_optimal',
  bridges: ['USDC'],
  hopPenaltyBps: 2,
};

/** Requests covering every strategy, bridging, exact-out, filters and balances. */
function requests(round: number): RouteRequest[] {
  const id = (k: number): string => `q-${round}-${k}`;
  return [
    { ...base, requestId: id(0) },
    { ...base, requestId: id(1), strategy: 'best_single', includeQuotes: false },
    { ...base, requestId: id(2), strategy: 'split_capped', maxVenues: 2 },
    { ...base, requestId: id(3), from: 'USDT', to: 'ETH', amount: 200_000, bridges: ['BTC', 'USDC'] },
    { ...base, requestId: id(4), from: 'USDC', to: 'BTC', exactSide: 'out', amount: 1.5, bridges: [] },
    { ...base, requestId: id(5), from: 'ETH', to: 'BTC', amount: 40, certifiedOnly: true, bridges: ['USDT'] },
    {
      ...base,
      requestId: id(6),
      balances: { default: { BTC: 0.4 }, perVenue: { sim01: { BTC: 2 } } },
      balanceMode: 'cap',
    },
    { ...base, requestId: id(7), exchanges: ['sim30', 'sim40', 'sim50'], strategy: 'best_single' },
  ];
}

async function caughtUp(feed: LogBookFeed, target: string): Promise<void> {
  const at = (): string => JSON.stringify({ books: feed.positions().books, venues: feed.positions().venues });
  for (let waited = 0; at() !== target; waited += 10) {
    if (waited > 10_000)
      throw new Error(`feed stuck at ${JSON.stringify(feed.positions())}, log at ${target}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('replay quote <requestId> against an embedded log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-quote-'));
  let log: EmbeddedLog;
  let feed: LogBookFeed;
  const served = new Map<string, string>();

  beforeAll(async () => {
    log = new EmbeddedLog({ dataDir: dir, fsync: 'never' });
    const sink = logSink(log);
    feed = createBookFeed({ log, logger: QUIET });
    await feed.start();
    const journal = new QuoteJournal({ log, routing: ROUTING, mode: 'strict' });
    const records: EventRecord[] = [
      ...generateMarket({
        seed: 3,
        startAt: START,
        durationMs: 90_000,
        snapshotEveryMs: 10_000,
        gapsPerMinute: 20,
        reconnectsPerMinute: 6,
      }),
    ];
    // Serve quotes at six points of the recording, each against the cache the live feed folded.
    const cuts = [0.1, 0.25, 0.4, 0.6, 0.8, 1].map((f) => Math.floor(records.length * f));
    let done = 0;
    for (const [round, cut] of cuts.entries()) {
      for (let i = done; i < cut; i += 2000) await sink.write(records.slice(i, Math.min(cut, i + 2000)));
      done = cut;
      const target = { books: await log.highWatermarks('books'), venues: await log.highWatermarks('venues') };
      await caughtUp(feed, JSON.stringify(target));
      // Some quotes run 12 s after the last record: every book is stale by then.
      const now = records[cut - 1]!.receivedAt + (round === 2 ? 12_000 : 137);
      for (const request of requests(round)) {
        const result = solve({ request, books: feed.cache, now, config: ROUTING });
        const body = JSON.stringify(result);
        served.set(request.requestId, body);
        await journal.record({
          kind: round % 2 === 0 ? 'rest' : 'stream',
          request,
          calculatedAt: result.calculatedAt,
          positions: feed.positions(),
          status: 200,
          body,
        });
      }
    }
    await journal.close();
  }, 60_000);

  afterAll(async () => {
    await feed.stop();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(
    requestId: string,
    flags: string[] = [],
  ): Promise<{ code: number; out: string; err: string[] }> {
    let out = '';
    const err: string[] = [];
    const code = await quoteCommand([requestId, ...flags], () => new EmbeddedLog({ dataDir: dir }), {
      out: (t) => (out += t),
      err: (l) => err.push(l),
    });
    return { code, out, err };
  }

  it('reproduces every journalled quote byte for byte', async () => {
    expect(served.size).toBe(48);
    const outcomes = new Set<string>();
    for (const [requestId, body] of served) {
      const r = await run(requestId);
      expect(r.err.join('\n')).toMatch(/^identical: sha256 [0-9a-f]{64}/);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${body}\n`);
      outcomes.add((JSON.parse(body) as { unroutableReason: string | null }).unroutableReason ?? 'routed');
    }
    // The set really exercises stale books and routed quotes, not one outcome.
    expect(outcomes).toContain('routed');
    expect(outcomes).toContain('all_books_stale');
  });

  // Its wall time is a benchmark figure (npm run bench -- tools), not an assertion: on a loaded
  // 2-core machine a spawned Node process can take over a second.
  it('runs as the built CLI in its own process', () => {
    const main = join(__dirname, '../../dist/apps/replay/src/main.js');
    expect(existsSync(main), 'run npm run build first (npm test does)').toBe(true);
    const r = spawnSync(process.execPath, [main, 'quote', 'q-4-3', '--data-dir', dir], {
      encoding: 'utf8',
      env: { ...process.env, KAFKA_BROKERS: undefined },
    });
    expect(r.stderr).toMatch(/^identical: sha256 /);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${served.get('q-4-3')}\n`);
    const usage = spawnSync(process.execPath, [main, 'quote'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^usage: quote <requestId>/);
  });

  it('rebuilds from snapshots: reads a bounded slice of the log, not all of it', async () => {
    const reader = new EmbeddedLog({ dataDir: dir });
    const found = (await findQuote(reader, 'q-5-0'))!;
    const replay = await replayQuote(reader, found.record);
    const total = (await reader.highWatermarks('books')).reduce((a, b) => a + b, 0);
    await reader.close();
    expect(replay.identical).toBe(true);
    expect(replay.stats.bookEntriesRead).toBeLessThan(total / 3);
  });

  it('fails with a field-level diff when a record that stores its response is tampered with', async () => {
    const reader = new EmbeddedLog({ dataDir: dir });
    const found = (await findQuote(reader, 'q-3-0'))!;
    await reader.close();
    // A record written with JOURNAL_RESPONSES=true carries the response the diff is taken against.
    const tampered: QuoteRecord = { ...found.record, request: { ...found.record.request, amount: 2.5 } };
    const value = encodeQuoteRecord(tampered, served.get('q-3-0')!);
    await log.append('quotes', [{ key: tampered.requestId, value }]);
    const r = await run('q-3-0');
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/^DIFFERENT: recorded sha256 [0-9a-f]{64}, replayed [0-9a-f]{64}/);
    expect(r.err.join('\n')).toMatch(
      /fields that differ \(the stored response -> replayed\):\n.*\$\.amountIn: 3 -> 2\.5/,
    );
  });

  it('a compact record (no response) that differs says so, and diffs against the client copy given with --response', async () => {
    const reader = new EmbeddedLog({ dataDir: dir });
    const found = (await findQuote(reader, 'q-3-1'))!;
    await reader.close();
    expect(found.record).toMatchObject({ v: 2, response: null });
    const tampered = encodeQuoteRecord(
      { ...found.record, request: { ...found.record.request, amount: 2.5 } },
      null,
    );
    await log.append('quotes', [{ key: 'q-3-1', value: tampered }]);
    const plain = await run('q-3-1');
    expect(plain.code).toBe(1);
    const recordedBytes = Buffer.byteLength(served.get('q-3-1')!);
    expect(plain.err[0]).toMatch(
      new RegExp(
        `^DIFFERENT: recorded sha256 [0-9a-f]{64}, replayed [0-9a-f]{64} \\(recorded ${recordedBytes} bytes, replayed \\d+;`,
      ),
    );
    expect(plain.err.join('\n')).toMatch(/no field diff: the record holds the response hash and length/);
    expect(plain.err.join('\n')).toContain('`quote q-3-1 --response <file>`');
    expect(plain.err.join('\n')).toContain('JOURNAL_RESPONSES=true');
    // The client kept the bytes it received (curl -o): the diff is taken against them.
    const file = join(dir, 'q-3-1.json');
    writeFileSync(file, served.get('q-3-1')!);
    const withFile = await run('q-3-1', ['--response', file]);
    expect(withFile.code).toBe(1);
    expect(withFile.err.join('\n')).toMatch(
      /fields that differ \(the response file -> replayed\):\n.*\$\.amountIn: 3 -> 2\.5/,
    );
    // A file that is not what was sent is refused for the diff, and said so.
    writeFileSync(file, served.get('q-3-0')!);
    const wrong = await run('q-3-1', ['--response', file]);
    expect(wrong.err.join('\n')).toMatch(/note: the response file is not the journalled response/);
    expect(wrong.err.join('\n')).toMatch(/no field diff/);
  });

  it('fails with a diff when the recorded config changed or the solver changed', async () => {
    const reader = new EmbeddedLog({ dataDir: dir });
    const found = (await findQuote(reader, 'q-1-0'))!;
    const changed: QuoteRecord = {
      ...found.record,
      config: { ...found.record.config, stalenessPenaltyBps: 50 },
    };
    const a = await replayQuote(reader, changed, { received: served.get('q-1-0')! });
    expect(a.identical).toBe(false);
    expect(a.diff.map((d) => d.path)).toContain('$.stalenessPenaltyBps');
    // A solver that rounds amounts differently (a "changed solver") is caught too.
    const b = await replayQuote(reader, found.record, {
      solve: (input) => ({ ...solve(input), amountOut: Math.round(solve(input).amountOut) }),
      solverVersion: '9.9.9',
      received: served.get('q-1-0')!,
    });
    await reader.close();
    expect(b.identical).toBe(false);
    expect(b.diff.map((d) => d.path)).toEqual(['$.amountOut']);
    expect(b.notes.join()).toMatch(/recorded with solver .*, replayed with 9\.9\.9/);
  });

  it('says so when a requestId is not in the journal, and the record format validates', async () => {
    const r = await run('no-such-id');
    expect(r.code).toBe(3);
    expect(r.err[0]).toMatch(/no journal record for requestId "no-such-id"/);
    const bad = parseQuoteRecordLine(JSON.stringify({ v: 1, type: 'quote', requestId: 'x' }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/field 'request' is missing/);
  });
});
