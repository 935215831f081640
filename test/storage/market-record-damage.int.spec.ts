import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findQuote, replayQuote } from '@app/audit';
import { InstantFold, logSources } from '@app/history';
import type { EventRecord, Level } from '@app/events';
import { EmbeddedLog, logSink, partitionFor } from '@app/event-log';
import { ListingRepublisher, RecordWriter } from '@app/venues';
import { book, market, venue } from '@test/support';
import { startApiServer } from '../../apps/api/src/bootstrap';
import { closeHost, openFeed, waitCaughtUp, type ApiHost } from '../../apps/api/src/compose';
import { call, type Answer } from '../api/support/http';
import { BASE_CONFIG } from '../api/support/server';
import { StepClock } from '../replay/support/journal-scenario';
import { runReplayCli } from '../replay/support/run-replay';
import { flipByte, rawFrames, segments } from './support/disk';

// Issue 21: the frame holding a venue's market record (taker fee 0.0025) is damaged. The API used
// to quote that venue on the default fee (0.001), legs 15 bps too good with nothing to show it.
// Now the market is out of routing, named in /health and /exchanges/status, until the ingestor's
// periodic republish writes the record again; then it is priced on its own fee. A quote served
// before the damage still replays to the same bytes.
const T = 1_786_500_000_000;
const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };
const VENUES_PARTITIONS = 4; // the embedded log's default
const ROUTE = '/route?from=BTC&to=USDT&amountIn=1&strategy=best_single&bridges=';

/** Two venue ids in different venues partitions, so the damage to one leaves the other alone. */
function twoVenues(): [string, string] {
  const names = ['exa', 'exb', 'exc', 'exd', 'exe', 'exf'];
  const a = names[0]!;
  const b = names.find((n) => partitionFor(n, VENUES_PARTITIONS) !== partitionFor(a, VENUES_PARTITIONS))!;
  return [a, b];
}
const [EXA, EXB] = twoVenues();

const snapshot = (exchangeId: string, bid: number, sequence: number, at: number): EventRecord =>
  book(exchangeId, 'BTC/USDT', [[bid, 50] as Level], [[bid + 20, 50] as Level], sequence, at);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The ingestor's way into the log: one RecordWriter, the listing republisher hooked to it. */
function ingestorWriter(
  host: ApiHost,
  clock: StepClock,
): { writer: RecordWriter; republisher: ListingRepublisher } {
  const republisher = new ListingRepublisher(
    (r) => writer.push(r),
    0,
    () => clock.now(),
  );
  const writer: RecordWriter = new RecordWriter({
    sink: logSink(host.log),
    logger: QUIET_INGESTOR,
    budgetBytes: 1 << 20,
    backoff: { initialMs: 10, maxMs: 100 },
    onLost: () => undefined,
    onRecovered: () => undefined,
    onPush: (records) => republisher.note(records),
  });
  return { writer, republisher };
}
const QUIET_INGESTOR = {
  info: () => undefined,
  warn: () => undefined,
  error: (m: string) => console.error(m),
};

async function written(host: ApiHost, writer: RecordWriter): Promise<void> {
  for (let i = 0; writer.queued > 0; i++) {
    if (i > 2000) throw new Error('the writer did not drain');
    await new Promise((r) => setTimeout(r, 5));
  }
  await waitCaughtUp(host);
}

async function serve(dataDir: string, clock: StepClock): Promise<ApiHost> {
  const host = await openFeed({ kafkaBrokers: null, dataDir }, QUIET);
  host.server = await startApiServer({
    config: { ...BASE_CONFIG, host: '127.0.0.1' },
    feed: host.feed,
    log: host.log,
    clock,
    logger: false,
  });
  return host;
}

interface HopJson {
  legs: { exchangeId: string; takerFeeRate: number }[];
  quotes?: { exchangeId: string }[];
}
const hop = (r: Answer): HopJson => (r.body as { hops: HopJson[] }).hops[0]!;
const legs = (r: Answer): HopJson['legs'] => hop(r).legs;

describe('a damaged market record', () => {
  it('keeps its market out of routing until the republished record arrives, then prices it on its own fee; quotes from before replay', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'market-damage-'));
    dirs.push(dataDir);
    const clock = new StepClock(T + 1_000);

    // 1. The ingestor writes both venues and their books; EXA's fee is 0.0025, its bid the best.
    let host = await serve(dataDir, clock);
    let ing = ingestorWriter(host, clock);
    // As a venue runner writes them once markets are loaded: the market records, then the venue's.
    ing.writer.push([
      { ...market(EXA, 'BTC/USDT', 0.0025), receivedAt: T },
      { ...venue(EXA), receivedAt: T, reconnectCount: 0 },
      { ...market(EXB, 'BTC/USDT', 0.001), receivedAt: T },
      { ...venue(EXB), receivedAt: T, reconnectCount: 0 },
      snapshot(EXA, 60_200, 1, T + 500),
      snapshot(EXB, 59_990, 1, T + 500),
    ]);
    await written(host, ing.writer);
    const before = await call(host.server!.url, ROUTE);
    expect(legs(before)).toEqual([expect.objectContaining({ exchangeId: EXA, takerFeeRate: 0.0025 })]);
    await host.server!.journal.flush();
    await closeHost(host);

    // 2. The frame holding EXA's market record is damaged in place.
    const partDir = join(dataDir, 'venues', String(partitionFor(EXA, VENUES_PARTITIONS)));
    const frame = rawFrames(partDir).find(
      (f) => f.value.includes('"type":"market"') && f.value.includes(EXA),
    )!;
    expect(segments(partDir)).toContain(frame.file);
    flipByte(frame.file, frame.position + frame.size - 10);

    // 3. Served again: EXA is out of routing, never priced on the default fee; the damage is named.
    clock.at = T + 3_000;
    host = await serve(dataDir, clock);
    ing = ingestorWriter(host, clock);
    // The restarted ingestor knows its records again (it wrote them at its start).
    ing.republisher.note([
      { ...market(EXA, 'BTC/USDT', 0.0025), receivedAt: T },
      { ...venue(EXA), receivedAt: T, reconnectCount: 0 },
    ]);
    ing.writer.push([snapshot(EXA, 60_200, 2, T + 2_500), snapshot(EXB, 59_990, 2, T + 2_500)]);
    await written(host, ing.writer);
    const url = host.server!.url;
    const during = await call(url, `${ROUTE}&includeQuotes=true`);
    expect(during.status).toBe(200);
    expect(legs(during)).toEqual([expect.objectContaining({ exchangeId: EXB, takerFeeRate: 0.001 })]);
    expect(hop(during).quotes!.map((q) => q.exchangeId)).toEqual([EXB]);
    const status = await call(url, '/exchanges/status');
    expect(status.body.log.marketsWithheld).toEqual([`${EXA} BTC/USDT`]);
    expect(status.body.log.damage).toMatchObject([{ topic: 'venues', fromOffset: frame.offset }]);
    expect((await call(url, '/health')).body.status).toBe('degraded');
    // Still out after more of its books: only its own records bring it back.
    clock.at = T + 4_000;
    ing.writer.push([snapshot(EXA, 60_200, 3, T + 3_800)]);
    await written(host, ing.writer);
    const still = await call(url, ROUTE);
    expect(legs(still).map((l) => l.exchangeId)).toEqual([EXB]);

    // 4. The periodic republish writes EXA's market and venue records again: priced on 0.0025.
    clock.at = T + 5_000;
    expect(ing.republisher.republish()).toBe(2);
    await written(host, ing.writer);
    const after = await call(url, ROUTE);
    expect(legs(after)).toEqual([expect.objectContaining({ exchangeId: EXA, takerFeeRate: 0.0025 })]);
    expect((await call(url, '/exchanges/status')).body.log.marketsWithheld).toEqual([]);
    // asOf reads the same way: at an instant after the copy it is priced on it; at an instant
    // before, its market record there is the lost one, so it stays out.
    const asOfAfter = await call(url, `${ROUTE}&asOf=${T + 5_000}`);
    expect(legs(asOfAfter)).toEqual([expect.objectContaining({ exchangeId: EXA, takerFeeRate: 0.0025 })]);
    const asOfDuring = await call(url, `${ROUTE}&asOf=${T + 4_000}`);
    expect(legs(asOfDuring).map((l) => l.exchangeId)).toEqual([EXB]);
    await host.server!.journal.flush();
    await closeHost(host);

    // 5. Every quote replays to the same bytes: the one from before the damage (its market record
    // taken from the copy written again, and said so), the one served without EXA, the one after.
    const reader = new EmbeddedLog({ dataDir, readOnly: true, onProblem: () => undefined });
    try {
      for (const served of [before, during, still, after, asOfAfter, asOfDuring]) {
        const id = served.headers.get('x-request-id')!;
        const found = await findQuote(reader, id);
        const replay = await replayQuote(reader, found!.record);
        expect(
          replay.identical,
          `${id} ${[before, during, still, after, asOfAfter, asOfDuring].indexOf(served)} ${replay.notes.join(';')} ${JSON.stringify(replay.diff).slice(0, 600)}`,
        ).toBe(true);
        expect(JSON.parse(replay.body)).toEqual(served.body);
        if (served === before)
          expect(replay.notes.join('\n')).toMatch(/lost to damage .* replayed with the copy/);
      }
      // A backtest's forward fold keeps EXA out the same way until the copy's instant.
      const fold = new InstantFold(await logSources(reader, () => undefined));
      const routed = async (t: number): Promise<string[]> => {
        await fold.advanceTo(t);
        return fold.routable(t).venuesListing('BTC/USDT').slice();
      };
      expect(await routed(T + 600)).toEqual([EXB]);
      expect(await routed(T + 4_500)).toEqual([EXB]);
      expect(await routed(T + 5_000)).toEqual([EXA, EXB].sort());
      const cli = await runReplayCli(['quote', before.headers.get('x-request-id')!, '--data-dir', dataDir], {
        openLog: () => reader,
      });
      expect(cli.code, cli.err.join('\n')).toBe(0);
      expect(cli.err.join('\n')).toMatch(/^identical: sha256/m);
      expect(cli.err.join('\n')).toMatch(
        new RegExp(`note: the market record of ${EXA} BTC/USDT .* lost to damage`),
      );
    } finally {
      await reader.close();
    }
  }, 120_000);
});
