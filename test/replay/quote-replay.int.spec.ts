import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_DEFAULTS } from '@app/config';
import type { EventRecord } from '@app/events';
import { encodeQuoteRecord, type QuoteRecord } from '@app/journal';
import { parseQuoteRecordLine } from '@app/audit';
import { EmbeddedLog, logSink } from '@app/event-log';
import { ROUTE_DEFAULTS } from '@app/request';
import { solve, type RouteRequest, type RoutingConfig } from '@app/routing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuoteJournal } from '@app/audit';
import { createBookFeed, type LogBookFeed } from '@app/live-feed';
import { generateMarket } from '@app/synth';
import { runReplayCli } from './support/run-replay';
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
  /** Quotes the venues' order rules shaped: routing as if no market carried rules differs. */
  const shaped = new Set<string>();

  beforeAll(async () => {
    log = new EmbeddedLog({ dataDir: dir, fsync: 'never' });
    const sink = logSink(log);
    feed = createBookFeed({ log, logger: QUIET });
    await feed.start();
    const journal = new QuoteJournal({
      log,
      routing: ROUTING,
      mode: 'strict',
      maxQueuedBytes: SERVER_DEFAULTS.journalQueueBytes,
    });
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
        const free = solve({
          request,
          books: feed.cache,
          now,
          config: { ...ROUTING, ignoreVenueRules: true },
        });
        if (JSON.stringify(free) !== body) shaped.add(request.requestId);
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
    return runReplayCli(['quote', requestId, ...flags, '--data-dir', dir]);
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
    // The generated venues carry order rules (libs/synth order-rules.ts): the market records in
    // the log hold them, so quotes they shaped replay to the same bytes too.
    expect(shaped.size).toBeGreaterThan(10);
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
    // No ids and nothing piped (spawnSync gives an empty pipe): a usage error, not a silent success.
    expect(usage.stderr).toMatch(/^quote: no requestIds on standard input/);
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

  it('fails with a field-level diff when a record is tampered with, listing every record of a reused id', async () => {
    const reader = new EmbeddedLog({ dataDir: dir });
    const found = (await findQuote(reader, 'q-3-0'))!;
    await reader.close();
    // A record written with JOURNAL_RESPONSES=true carries the response the diff is taken against.
    const tampered: QuoteRecord = { ...found.record, request: { ...found.record.request, amount: 2.5 } };
    const value = encodeQuoteRecord(tampered, served.get('q-3-0')!);
    // A stream record: it is in the stream topic (issue 22), and so is the tampered copy.
    expect(found.topic).toBe('stream');
    await log.append(found.topic, [{ key: tampered.requestId, value }]);
    // Both records of the id are listed and replayed: the original is identical, the other differs.
    const r = await run('q-3-0');
    expect(r.code).toBe(1);
    expect(r.err[0]).toBe('requestId "q-3-0" was journalled 2 times (a reused x-request-id):');
    expect(r.err[1]).toMatch(
      /^ {2}#1\/2 stream\/\d+@\d+: stream BTC->USDT 3 split_optimal, calculatedAt \d+/,
    );
    expect(r.err[2]).toMatch(/^ {2}#2\/2 stream\/\d+@\d+: stream BTC->USDT 2\.5 split_optimal/);
    expect(r.err.join('\n')).toMatch(/^identical: q-3-0 #1\/2 sha256 [0-9a-f]{64}/m);
    expect(r.err.join('\n')).toMatch(
      /^DIFFERENT: q-3-0 #2\/2 recorded sha256 [0-9a-f]{64}, replayed [0-9a-f]{64}/m,
    );
    expect(r.err.join('\n')).toMatch(/\$\.amountIn: 3 -> 2\.5/);
    expect(r.out.trimEnd().split('\n')).toHaveLength(2);
    // Either one can be picked, and listed without replaying.
    const first = await runReplayCli(['quote', 'q-3-0', '--occurrence', '1', '--data-dir', dir]);
    expect(first.code).toBe(0);
    expect(first.out).toBe(`${served.get('q-3-0')}\n`);
    expect((await runReplayCli(['quote', 'q-3-0', '--occurrence', '2', '--data-dir', dir])).code).toBe(1);
    expect((await runReplayCli(['quote', 'q-3-0', '--occurrence', '3', '--data-dir', dir])).code).toBe(2);
    const list = await runReplayCli(['quote', 'q-3-0', '--list', '--data-dir', dir]);
    expect(list.code).toBe(0);
    expect(
      list.out
        .trimEnd()
        .split('\n')
        .map((l) => l.slice(0, 11)),
    ).toEqual(['q-3-0 #1/2 ', 'q-3-0 #2/2 ']);
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
    await log.append(found.topic, [{ key: 'q-3-1', value: tampered }]);
    // The id now has two records: the second (tampered) one is picked.
    const plain = await run('q-3-1', ['--occurrence', '2']);
    expect(plain.code).toBe(1);
    const recordedBytes = Buffer.byteLength(served.get('q-3-1')!);
    expect(plain.err.join('\n')).toMatch(
      new RegExp(
        `^DIFFERENT: q-3-1 #2/2 recorded sha256 [0-9a-f]{64}, replayed [0-9a-f]{64} \\(recorded ${recordedBytes} bytes, replayed \\d+;`,
        'm',
      ),
    );
    expect(plain.err.join('\n')).toMatch(/no field diff: the record holds the response hash and length/);
    expect(plain.err.join('\n')).toContain('`quote q-3-1 --response <file>`');
    expect(plain.err.join('\n')).toContain('JOURNAL_RESPONSES=true');
    // The client kept the bytes it received (curl -o): the diff is taken against them.
    const file = join(dir, 'q-3-1.json');
    writeFileSync(file, served.get('q-3-1')!);
    const withFile = await run('q-3-1', ['--occurrence', '2', '--response', file]);
    expect(withFile.code).toBe(1);
    expect(withFile.err.join('\n')).toMatch(
      /fields that differ \(the response file -> replayed\):\n.*\$\.amountIn: 3 -> 2\.5/,
    );
    // A file that is not what was sent is refused for the diff, and said so.
    writeFileSync(file, served.get('q-3-0')!);
    const wrong = await run('q-3-1', ['--occurrence', '2', '--response', file]);
    expect(wrong.err.join('\n')).toMatch(/note: the response file is not the journalled response/);
    expect(wrong.err.join('\n')).toMatch(/no field diff/);
  });

  it('replays several requestIds per call, from the arguments or from stdin', async () => {
    const ids = ['q-0-0', 'q-1-4', 'q-5-7'];
    const args = await runReplayCli(['quote', ...ids, '--data-dir', dir]);
    expect(args.code).toBe(0);
    expect(args.out).toBe(ids.map((id) => `${served.get(id)}\n`).join(''));
    expect(args.err.filter((l) => l.startsWith('identical: '))).toHaveLength(3);
    const piped = await runReplayCli(['quote', '--data-dir', dir], {
      stdin: `${ids.join('\n')}\n\n# a comment\n`,
    });
    expect(piped.code).toBe(0);
    expect(piped.out).toBe(args.out);
    // An unknown id among known ones: exit 3, the others still replayed.
    const mixed = await runReplayCli(['quote', 'q-0-0', 'nope', '--data-dir', dir]);
    expect(mixed.code).toBe(3);
    expect(mixed.out).toBe(`${served.get('q-0-0')}\n`);
  });

  /** A copy of the fixture's log, entry by entry (same partitions and offsets), `alter`ing quotes. */
  async function copyLog(
    alter: (key: string, value: string, seen: number) => string | null,
  ): Promise<string> {
    const to = mkdtempSync(join(tmpdir(), 'replay-audit-'));
    const src = new EmbeddedLog({ dataDir: dir, readOnly: true });
    const dst = new EmbeddedLog({ dataDir: to, fsync: 'never' });
    const seen = new Map<string, number>();
    for (const topic of ['books', 'venues', 'quotes', 'stream'] as const) {
      for (let p = 0; p < (await src.partitions(topic)); p++) {
        const entries = await src.read(topic, p, 0);
        const kept = entries.flatMap((e) => {
          if (topic !== 'quotes' && topic !== 'stream') return [{ key: e.key, value: e.value }];
          const n = (seen.get(e.key) ?? 0) + 1;
          seen.set(e.key, n);
          const value = alter(e.key, e.value, n);
          return value === null ? [] : [{ key: e.key, value }];
        });
        await dst.append(topic, kept);
      }
    }
    await src.close();
    await dst.close();
    return to;
  }

  it('audits a time range: reports a record tampered in place and an unreadable one, with exit 1', async () => {
    const at = (id: string): number => (JSON.parse(served.get(id)!) as { calculatedAt: number }).calculatedAt;
    const all = ['--from', String(START), '--to', String(START + 3_600_000)];
    // The original 48 quotes (the earlier test appended a second q-3-0: left out here), q-1-2 altered.
    const tampered = await copyLog((key, value, n) => {
      if (n > 1) return null;
      if (key !== 'q-1-2') return value;
      const r = JSON.parse(value) as QuoteRecord;
      return JSON.stringify({ ...r, request: { ...r.request, maxVenues: 1 } });
    });
    const r = await runReplayCli(['audit', ...all, '--data-dir', tampered]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/: 48 quotes; identical 47, different 1, not reproducible 0 \(/);
    expect(r.err[0]).toMatch(
      /^DIFFERENT stream\/\d+@\d+ requestId "q-1-2": recorded sha256 [0-9a-f]{64}, replayed/,
    );
    // A range holding only the first round's quotes is clean: exit 0.
    const round0 = ['--from', String(at('q-0-0')), '--to', String(at('q-0-0'))];
    const clean = await runReplayCli(['audit', ...round0, '--data-dir', tampered]);
    expect(clean.out).toMatch(/: 8 quotes; identical 8, different 0, not reproducible 0/);
    expect(clean.code).toBe(0);
    // ISO 8601 times work as well; a range with nothing journalled is exit 3.
    const iso = new Date(START - 60_000).toISOString();
    const empty = await runReplayCli(['audit', '--from', iso, '--to', iso, '--data-dir', tampered]);
    expect(empty.code).toBe(3);
    expect(empty.err.join()).toMatch(/no journalled quote calculated in/);
    rmSync(tampered, { recursive: true, force: true });

    // A record that is no longer even JSON cannot be placed in time: it is reported in any range.
    const broken = await copyLog((key, value, n) =>
      n > 1 ? null : key === 'q-2-5' ? `${value.slice(0, 40)}` : value,
    );
    const b = await runReplayCli(['audit', ...round0, '--data-dir', broken]);
    expect(b.code).toBe(1);
    expect(b.out).toMatch(/: 9 quotes; identical 8, different 0, not reproducible 1/);
    expect(b.err.join('\n')).toMatch(
      /^NOT REPRODUCIBLE quotes\/\d+@\d+: invalid journal record: .*not valid JSON/m,
    );
    rmSync(broken, { recursive: true, force: true });
  }, 60_000);

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
