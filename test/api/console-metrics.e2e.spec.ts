import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { tempDir, waitFor } from '@test/support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http';
import { startService, type LogLine, type ServiceProcess } from './support/service-process';

// `npm start` live with no venue reachable: /health says no_fresh_books, the console names each
// failing venue with its error in a periodic summary (not a line per retry), and the admin port
// serves metrics a Prometheus text-format parser reads.
const VENUES = ['binance', 'kraken', 'okx'];

/** A local port nothing listens on: every connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((res) => server.close(() => res()));
  return port;
}

const isSummary = (l: LogLine): boolean => l.component === 'Status' && typeof l.freshBooks === 'number';

describe('live mode with every venue unreachable', () => {
  const dir = tempDir('console-metrics');
  let svc: ServiceProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    const refused = await closedPort();
    // The real ccxt classes, their REST calls sent to a proxy that refuses every connection.
    const proxy = {
      ccxt: { httpsProxy: `http://127.0.0.1:${refused}` },
    };
    const config = join(dir.path, 'venues.json');
    writeFileSync(config, JSON.stringify({ venues: Object.fromEntries(VENUES.map((v) => [v, proxy])) }));
    svc = await startService(['--port', '0', '--host', '127.0.0.1'], {
      DATA_DIR: join(dir.path, 'data'),
      VENUES_CONFIG: config,
      LOG_SUMMARY_MS: '500',
      METRICS_PORT: '0',
      KAFKA_BROKERS: undefined,
    });
    const metrics = await svc.waitForLine('the metrics line', (l) => l.message === 'metrics listening');
    metricsUrl = metrics.url as string;
  }, 60_000);

  afterAll(async () => {
    await svc?.stop();
    dir.remove();
  });

  it('prints one summary at start, then periodic lines naming every failing venue with its error', async () => {
    const first = svc.lines().find(isSummary)!;
    expect(first.message).toMatch(/^serving: (starting|no_fresh_books): venues /);
    const named = await svc.waitForLine(
      'a summary naming all three venues',
      (l) => {
        const failing = l.failing as Record<string, string> | undefined;
        return (
          isSummary(l) && failing !== undefined && VENUES.every((v) => /ECONNREFUSED/.test(failing[v] ?? ''))
        );
      },
      20_000,
    );
    expect(named).toMatchObject({
      level: 'warn',
      status: 'no_fresh_books',
      venues: 3,
      connected: 0,
      freshBooks: 0,
    });
    expect(named.message).toBe(
      'no_fresh_books: venues 0/3 connected, 0 fresh; books 0/0 fresh; failing: binance, kraken, okx',
    );
    for (const v of VENUES)
      expect((named.failing as Record<string, string>)[v]).toMatch(
        new RegExp(`^loading markets failed: NetworkError: ${v} `),
      );
  });

  it('never a flood: every line is structured JSON, the retries are not lines of their own', async () => {
    // A few summary periods while three venues retry with backoff from 500 ms.
    await waitFor('four more summaries', () => svc.lines().filter(isSummary).length >= 5);
    const lines = svc.lines();
    for (const l of lines)
      expect(l).toMatchObject({
        level: expect.any(String),
        time: expect.any(String),
        message: expect.any(String),
      });
    const others = lines.filter((l) => !isSummary(l));
    expect(others.map((l) => l.message)).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/loading markets failed|re-subscribing/)]),
    );
    expect(others.length).toBeLessThanOrEqual(6);
    expect(svc.stderr()).toBe('');
  });

  it('/health reports no_fresh_books and still only status and uptimeSec', async () => {
    const r = await call(svc.url, '/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'no_fresh_books', uptimeSec: expect.any(Number) });
  });

  it('/metrics on the admin port parses as Prometheus text and tells the same story', async () => {
    expect((await call(svc.url, '/route?from=BTC&to=USDT&amountIn=1')).status).toBe(404);
    expect((await call(svc.url, '/route?from=BTC')).status).toBe(400);
    // The public port does not serve metrics; the admin port serves nothing else.
    expect((await call(svc.url, '/metrics')).status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
    const res = await fetch(metricsUrl);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusTextFormat(await res.text());
    const family = (name: string) => {
      const f = families.find((x) => x.name === name);
      if (f === undefined) throw new Error(`no metric family ${name}`);
      return f;
    };
    const value = (name: string, labels: Record<string, string> = {}): number => {
      const sample = family(name).metrics.find((m) =>
        Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
      );
      if (sample === undefined) throw new Error(`no ${name} sample with ${JSON.stringify(labels)}`);
      return Number(sample.value);
    };
    expect(value('health_status', { status: 'no_fresh_books' })).toBe(1);
    expect(value('health_status', { status: 'ok' })).toBe(0);
    for (const venue of VENUES) expect(value('venue_connected', { venue })).toBe(0);
    expect(value('route_quotes_total', { method: 'GET', status: '404' })).toBe(1);
    expect(value('route_quotes_total', { method: 'GET', status: '400' })).toBe(1);
    expect(family('route_duration_seconds').type).toBe('HISTOGRAM');
    // This parser folds a labelled histogram into one sample of buckets (one label set here: GET).
    expect(family('route_duration_seconds').metrics[0]!.buckets?.['+Inf']).toBe('2');
    expect(family('stream_push_delay_seconds').type).toBe('HISTOGRAM');
    expect(family('feed_lag_records').metrics.length).toBeGreaterThan(0);
    for (const m of family('feed_lag_records').metrics) expect(Number(m.value)).toBeGreaterThanOrEqual(0);
    for (const name of [
      'journal_queued_records',
      'journal_append_failures_total',
      'stream_frames_dropped_total',
      'stream_frames_withheld_total',
      'http_rate_limited_total',
      'process_resident_memory_bytes',
    ])
      expect(Number.isFinite(value(name))).toBe(true);
  });
});
