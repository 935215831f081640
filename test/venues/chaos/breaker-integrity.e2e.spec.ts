import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PARKED_PREFIX } from '@app/telemetry';
import { tempDir, waitFor } from '@test/support';
import { startService, type ServiceProcess } from '../../api/support/service-process';
import { ChaosVenue } from './chaos-venue';
import { startRun, type ChaosRun } from './run-venues';
import { SPEAKERS } from './speakers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface VenueStatus {
  readonly exchangeId: string;
  readonly connected: boolean;
  readonly lastError: string | null;
}

async function exchanges(service: ServiceProcess): Promise<VenueStatus[]> {
  const res = await fetch(`${service.url}/exchanges/status`);
  return ((await res.json()) as { exchanges: VenueStatus[] }).exchanges;
}

describe('circuit breaker (npm start: ingestor and API in one process)', () => {
  it('a venue refusing for good is parked, shown in /exchanges/status, /metrics and the summary line, probed, and back once its server answers', async () => {
    const down = await new ChaosVenue(SPEAKERS.hollaex!()).start();
    const up = await new ChaosVenue(SPEAKERS.okx!()).start();
    cleanups.push(
      () => down.close(),
      () => up.close(),
    );
    down.fault = 'refuse';
    const dir = tempDir('breaker');
    cleanups.push(() => dir.remove());
    const file = join(dir.path, 'venues.json');
    writeFileSync(
      file,
      JSON.stringify({
        defaults: {
          backoff: { initialMs: 100, maxMs: 400 },
          breaker: { failures: 3, failingMs: 1_000, probeMs: 1_000, maxProbeMs: 3_000 },
        },
        venues: { hollaex: { ccxt: down.ccxtOptions() }, okx: { ccxt: up.ccxtOptions() } },
      }),
    );
    const service = await startService(['--port', '0', '--host', '127.0.0.1'], {
      DATA_DIR: join(dir.path, 'data'),
      VENUES_CONFIG: file,
      METRICS_PORT: '0',
      LOG_SUMMARY_MS: '1000',
      RATE_LIMIT_RPS: '100000',
    });
    cleanups.push(async () => void (await service.stop()));
    const metricsLine = await service.waitForLine(
      'the metrics line',
      (l) => l.message === 'metrics listening',
    );
    const state = async (venue: string): Promise<string | undefined> => {
      const text = await (await fetch(String(metricsLine.url))).text();
      const m = new RegExp(`ingestor_venue_state\\{venue="${venue}",state="([a-z]+)"\\} 1`).exec(text);
      return m?.[1];
    };
    await waitFor(
      'hollaex parked in /exchanges/status',
      async () =>
        (await exchanges(service))
          .find((v) => v.exchangeId === 'hollaex')
          ?.lastError?.startsWith(PARKED_PREFIX) === true,
      30_000,
    );
    const parked = (await exchanges(service)).find((v) => v.exchangeId === 'hollaex')!;
    expect(parked.connected).toBe(false);
    expect(parked.lastError).toMatch(/^parked until \d{4}-\d\d-\d\dT.* after \d+ failures in a row: /);
    await waitFor('/metrics to show it parked', async () => (await state('hollaex')) === 'parked', 10_000);
    await service.waitForLine(
      'a summary naming it parked',
      (l) => / parked; /.test(l.message) && l.message.includes('hollaex'),
      10_000,
    );
    // Parked is not given up: the breaker probes it (connections come, spaced out).
    const during = down.counts.connections;
    expect((await exchanges(service)).find((v) => v.exchangeId === 'okx')?.connected).toBe(true);
    down.fault = 'good';
    await waitFor(
      'hollaex back after a probe',
      async () => (await exchanges(service)).find((v) => v.exchangeId === 'hollaex')?.connected === true,
      30_000,
    );
    expect(await state('hollaex')).toBe('connected');
    expect(down.counts.connections).toBeGreaterThan(during);
    expect(service.child.exitCode).toBeNull();
  }, 90_000);
});

describe('integrity checks: on by default, off per venue', () => {
  let run: ChaosRun | null = null;
  afterEach(async () => {
    await run?.close();
    run = null;
  });

  it('a wrong OKX checksum resyncs that book where checks are on; with checksum:false it is not checked', async () => {
    run = await startRun([SPEAKERS.okx!(), SPEAKERS.myokx!()], () => undefined, undefined, 250, {
      myokx: { checksum: false },
    });
    const ids = ['okx', 'myokx'];
    await waitFor('both venues good', async () => {
      const v = await run!.ingestor.venues();
      return ids.every((id) => v.get(id)?.goodBooks === 6);
    });
    // One change reaches the clients with a level wrong: their books and the venue's differ from
    // then on, and so does every checksum the venue sends, until the book is resubscribed. The
    // check runs once a second per book (the default interval), so it finds it within about 1 s.
    for (const id of ids) run.venues.get(id)!.divergeNext.add('BTC-USDT');
    await waitFor('okx to count the checksum failure', async () => {
      const v = await run!.ingestor.venues();
      return (v.get('okx')?.events.checksumFailures ?? 0) >= 1 && v.get('okx')?.goodBooks === 6;
    });
    const v = await run.ingestor.venues();
    const okx = v.get('okx')!.events;
    // Once, unless the resync took longer than an interval on a loaded machine (then the book,
    // still divergent, failed again and was resynced again): each failure resyncs one book.
    expect(okx.checksumFailures).toBeGreaterThanOrEqual(1);
    expect(okx).toMatchObject({ bookResyncs: okx.checksumFailures, connectionResyncs: 0 });
    expect(v.get('myokx')!.events).toMatchObject({
      checksumFailures: 0,
      bookResyncs: 0,
      connectionResyncs: 0,
    });
    expect(v.get('myokx')!.goodBooks).toBe(6);
  }, 60_000);
});
