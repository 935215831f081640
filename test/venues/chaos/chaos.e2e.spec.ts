import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VENUES, ruleOf } from '@app/venues';
import { waitFor } from '@test/support';
import type { ChaosVenue, Fault } from './chaos-venue';
import type { VenueView } from './ingestor-process';
import { startRun, type ChaosRun } from './run-venues';
import { SPEAKERS } from './speakers';

/**
 * The chaos suite: every default venue's real ccxt class, in one ingestor process, against its
 * local server, through one fault after another. For each fault: the process survives, every
 * venue the fault applies to shows it in /metrics, every venue recovers once its server behaves
 * again, and books the fault did not concern are not touched. Timeouts are compressed through
 * VENUES_CONFIG (silence 5 s, backoff up to 1 s, ccxt's re-dial backoff up to 300 ms).
 */

const DEFAULTS = {
  silenceMs: 5_000,
  backoff: { initialMs: 100, maxMs: 1_000 },
  breaker: { failures: 1_000, failingMs: 3_600_000, probeMs: 1_000, maxProbeMs: 4_000 },
};

/** How a fault is brought about and what /metrics must show for it. */
interface FaultPlan {
  readonly fault: Fault | 'crossed-change';
  /** Whether the fault can touch this venue (REST faults: only venues that load books over REST). */
  readonly applies: (v: ChaosVenue) => boolean;
  /** Drop every connection so the venue meets the fault while reconnecting. */
  readonly drop: boolean;
  /** The venue showed the fault (a counter moved since `before`). */
  readonly shown: (before: VenueView, now: VenueView) => boolean;
}

const moved = (events: string[]) => (b: VenueView, n: VenueView) =>
  events.some((e) => (n.events[e] ?? 0) > (b.events[e] ?? 0));
const anyVenue = (): boolean => true;
/** Venues that have loaded books over REST (a REST fault concerns only them). */
const restVenue = (v: ChaosVenue): boolean => v.restLog.length > 0;
// A bad book is withheld, or refused by ccxt's own checks (a checksum, a sequence); bitget's ccxt
// swallows its own checksum error when its unsubscribe fails, and the book then goes silent.
const badBook = moved(['badBooks', 'checksumFailures', 'gaps', 'stalls']);

const PLANS: readonly FaultPlan[] = [
  { fault: 'refuse', applies: anyVenue, drop: true, shown: moved(['failures']) },
  { fault: 'drop-on-subscribe', applies: anyVenue, drop: true, shown: moved(['failures']) },
  { fault: 'drop-after-first-book', applies: anyVenue, drop: true, shown: moved(['failures']) },
  { fault: 'silent', applies: anyVenue, drop: false, shown: moved(['stalls']) },
  { fault: 'empty-first-book', applies: anyVenue, drop: true, shown: badBook },
  { fault: 'crossed-first-book', applies: anyVenue, drop: true, shown: badBook },
  { fault: 'crossed-change', applies: anyVenue, drop: false, shown: badBook },
  { fault: 'rest-429', applies: restVenue, drop: true, shown: moved(['rateLimited']) },
  { fault: 'rest-5xx', applies: restVenue, drop: true, shown: moved(['failures']) },
];

/** Per fault: venues it applied to, how many showed it, recovered, and the recovery times (ms). */
interface PhaseFigures {
  readonly fault: string;
  readonly venues: number;
  readonly shown: number;
  readonly recovered: number;
  readonly recoveryMs: number[];
  /** Wall-clock window (epoch ms) of the phase, for reading its records back. */
  readonly from: number;
  readonly to: number;
  /** Venues the fault did not concern, and their counters before and after the phase. */
  readonly spared: readonly string[];
  readonly before: Map<string, VenueView>;
  readonly after: Map<string, VenueView>;
}

let run: ChaosRun;
const ids = [...DEFAULT_VENUES];
const expectedBooks = new Map<string, number>();
const figures: PhaseFigures[] = [];
/** This process's event-loop stalls: the local venues stamp REST calls when they get to them. */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

beforeAll(async () => {
  loopDelay.enable();
  const speakers = ids.map((id) => SPEAKERS[id]!());
  for (const s of speakers) expectedBooks.set(s.id, s.markets.length);
  run = await startRun(speakers, () => undefined, DEFAULTS, 500);
  await allGood(ids, 120_000);
}, 180_000);

afterAll(async () => {
  await run?.close();
});

/** Wait until every venue of `which` has every book good; returns when each got there (ms after `since`). */
async function allGood(
  which: readonly string[],
  timeoutMs: number,
  since = performance.now(),
): Promise<Map<string, number>> {
  const at = new Map<string, number>();
  await waitFor(
    `${which.length} venues to publish good books`,
    async () => {
      if (!run.ingestor.alive)
        throw new Error(`ingestor exited: ${run.ingestor.stderr.slice(-20).join('\n')}`);
      const views = await run.ingestor.venues();
      const t = performance.now() - since;
      for (const id of which) {
        const v = views.get(id);
        if (!at.has(id) && v !== undefined && v.books === expectedBooks.get(id) && v.goodBooks === v.books)
          at.set(id, t);
      }
      return at.size === which.length;
    },
    timeoutMs,
  ).catch((e: unknown) => {
    const missing = which.filter((id) => !at.has(id));
    const said = run.ingestor.lines
      .filter((l) => missing.includes(String(l.exchangeId)))
      .slice(-12)
      .map(
        (l) =>
          `${String(l.exchangeId)}: ${l.msg ?? l.message ?? ''} ${JSON.stringify(l.error ?? l.symbol ?? '')}`,
      );
    throw new Error(
      `${(e as Error).message}; not recovered: ${missing.join(', ')}; they said ${said.join(' | ')}`,
    );
  });
  return at;
}

async function runPhase(plan: FaultPlan): Promise<PhaseFigures> {
  const from = Date.now();
  const venues = ids.map((id) => run.venues.get(id)!);
  const hit = venues.filter(plan.applies);
  const before = await run.ingestor.venues();
  for (const v of hit) {
    v.badBookMarkets = new Set([v.speaker.markets[0]!.id]);
    v.badBookScope = 'all';
    if (plan.fault === 'crossed-change') v.corruptNext.add(v.speaker.markets[0]!.id);
    else v.fault = plan.fault;
    if (plan.drop) v.dropAll();
  }
  // Hold the fault until every venue it touches shows it (or 12 s have passed).
  let now = before;
  const shownBy = (): string[] =>
    hit.filter((v) => plan.shown(before.get(v.speaker.id)!, now.get(v.speaker.id)!)).map((v) => v.speaker.id);
  await waitFor(
    `${plan.fault} to show`,
    async () => {
      now = await run.ingestor.venues();
      return shownBy().length === hit.length;
    },
    12_000,
  ).catch(() => undefined);
  const shown = shownBy();
  for (const v of hit) {
    v.fault = 'good';
    v.badBookMarkets = null;
    v.badBookScope = 'first-on-connection';
  }
  const recovery = await allGood(ids, 60_000);
  const to = Date.now();
  const after = await run.ingestor.venues();
  const figure: PhaseFigures = {
    fault: plan.fault,
    venues: hit.length,
    shown: shown.length,
    recovered: hit.filter((v) => recovery.has(v.speaker.id)).length,
    recoveryMs: hit.map((v) => recovery.get(v.speaker.id)!).sort((a, b) => a - b),
    from,
    to,
    spared: venues.filter((v) => !hit.includes(v)).map((v) => v.speaker.id),
    before,
    after,
  };
  expect(
    hit.map((v) => v.speaker.id).filter((id) => !shown.includes(id)),
    `${plan.fault}: venues that did not show it`,
  ).toEqual([]);
  return figure;
}

describe(`chaos: all ${DEFAULT_VENUES.length} default venues' ccxt classes against failing servers, in one process`, () => {
  it.each(PLANS.map((p) => [p.fault, p] as const))(
    '%s: shown in /metrics, survived, recovered',
    async (_, plan) => {
      const f = await runPhase(plan);
      figures.push(f);
      expect(run.ingestor.alive).toBe(true);
      expect(f.recovered).toBe(f.venues);
    },
    120_000,
  );

  it('no book a fault did not concern was touched', async () => {
    // Venues a fault did not concern (REST faults: those that never load books over REST): none of
    // their books failed, stalled, was withheld or was resynchronised during it.
    const quiet = [
      'failures',
      'stalls',
      'badBooks',
      'gaps',
      'checksumFailures',
      'bookResyncs',
      'connectionResyncs',
    ];
    for (const f of figures) {
      const moved = (id: string): string[] =>
        quiet
          .filter((e) => (f.after.get(id)!.events[e] ?? 0) !== (f.before.get(id)!.events[e] ?? 0))
          .map(
            (e) => `${id} ${e} +${(f.after.get(id)!.events[e] ?? 0) - (f.before.get(id)!.events[e] ?? 0)}`,
          );
      const touched = f.spared.flatMap(moved);
      const said = run.ingestor.lines
        .filter((l) => touched.some((t) => t.startsWith(`${String(l.exchangeId)} `)))
        .filter((l) => Number(new Date(String(l.time))) >= f.from && Number(new Date(String(l.time))) <= f.to)
        .map(
          (l) =>
            `${String(l.exchangeId)}: ${l.msg ?? l.message ?? ''} ${JSON.stringify(l.error ?? l.symbol ?? '')}`,
        );
      expect(
        touched,
        `${f.fault}: venues it did not concern; they said ${said.slice(0, 8).join(' | ')}`,
      ).toEqual([]);
      if (f.fault.startsWith('rest-')) expect(f.spared.length, f.fault).toBeGreaterThan(30);
    }
    const books = await run.ingestor.bookRecords();
    // One corrupt change on one book: where the venue resyncs a book alone, no other book of it was
    // resynced (a resync snapshot comes sooner than the periodic one, 30 s after the last).
    const crossed = figures.find((x) => x.fault === 'crossed-change')!;
    const lastSnapshot = new Map<string, number>();
    const resynced: string[] = [];
    for (const r of books) {
      if (!r.snapshot) continue;
      const key = `${r.exchangeId} ${r.symbol}`;
      const prev = lastSnapshot.get(key);
      lastSnapshot.set(key, r.receivedAt);
      if (prev === undefined || r.receivedAt < crossed.from || r.receivedAt > crossed.to) continue;
      if (r.receivedAt - prev < 25_000) resynced.push(key);
    }
    const byBook = ids.filter((id) => ruleOf(id).resync === 'book');
    const others = resynced.filter((key) => {
      const [id, symbol] = key.split(' ') as [string, string];
      const first = run.venues.get(id)!.speaker.markets[0]!;
      return byBook.includes(id) && symbol !== `${first.base}/${first.quote}`;
    });
    expect(byBook.length).toBeGreaterThan(10);
    expect(others).toEqual([]);
    // Every sequence of every book stayed contiguous across all the faults.
    const last = new Map<string, number>();
    for (const r of books) {
      const key = `${r.exchangeId}|${r.symbol}`;
      const prev = last.get(key) ?? 0;
      expect(r.sequence, key).toBe(prev + 1);
      last.set(key, r.sequence);
    }
  }, 60_000);

  it("REST: a 429's Retry-After is waited out, and snapshot calls stay inside each venue's weight budget", () => {
    const restVenues = ids.filter((id) => run.venues.get(id)!.restLog.length > 0);
    expect(restVenues.length).toBeGreaterThan(5);
    for (const id of restVenues) {
      const log = run.venues.get(id)!.restLog;
      // Nothing arrives between 250 ms (a request already on its way on a loaded machine) and
      // 900 ms after a 429 that asked for 1 s.
      for (const r of log.filter((x) => x.status === 429)) {
        const early = log.filter((x) => x.at > r.at + 250 && x.at < r.at + 900);
        expect(early.length, `${id}: REST calls within Retry-After`).toBe(0);
      }
      const budget = ruleOf(id).rest;
      if (budget === undefined) continue;
      // At the budget's pace a snapshot may leave every 60 s x weight / budget per minute; ccxt's
      // leaky bucket lets two leave together after a quiet spell, never three, so any three calls
      // span at least one spacing at the client. The local venues stamp a call when their event
      // loop gets to it, so a stall of this process brings calls closer by up to its length.
      const spacing = (60_000 * budget.snapshotWeight) / budget.weightPerMinute;
      const stallMs = loopDelay.max / 1e6;
      const ok = log.filter((x) => x.status === 200).map((x) => x.at);
      let worst = Infinity;
      for (let i = 2; i < ok.length; i++) worst = Math.min(worst, ok[i]! - ok[i - 2]!);
      expect(
        worst,
        `${id}: closest three snapshot calls (budget spacing ${spacing} ms, longest stall here ${stallMs} ms)`,
      ).toBeGreaterThanOrEqual(spacing - stallMs);
      const perMinute = Math.max(...ok.map((t) => ok.filter((u) => u >= t && u < t + 60_000).length));
      expect(perMinute * budget.snapshotWeight, `${id}: weight in a minute`).toBeLessThanOrEqual(
        budget.weightPerMinute,
      );
    }
  });

  it('the figures', () => {
    const all = figures.flatMap((f) => f.recoveryMs);
    const pct = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
    const lines = figures.map(
      (f) =>
        `${f.fault.padEnd(22)} venues ${String(f.venues).padStart(2)}  shown ${String(f.shown).padStart(2)}  recovered ${String(f.recovered).padStart(2)}  time to recover p50 ${Math.round(pct(f.recoveryMs, 0.5))} ms, max ${Math.round(f.recoveryMs.at(-1) ?? 0)} ms`,
    );
    const sorted = [...all].sort((a, b) => a - b);
    console.log(
      [
        `chaos: ${figures.reduce((n, f) => n + f.venues, 0)} venue x fault runs over ${ids.length} venues, process exits: ${run.ingestor.exit === null ? 0 : 1}`,
        ...lines,
        `all: recovered ${figures.reduce((n, f) => n + f.recovered, 0)}, p50 ${Math.round(pct(sorted, 0.5))} ms, p90 ${Math.round(pct(sorted, 0.9))} ms, max ${Math.round(sorted.at(-1) ?? 0)} ms`,
      ].join('\n'),
    );
    expect(run.ingestor.exit).toBeNull();
    expect(figures).toHaveLength(PLANS.length);
  });
});
