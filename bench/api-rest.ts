/**
 * GET /route under autocannon: latency at light concurrency (a handful of callers) and throughput
 * with the server saturated, the client in a worker thread of the bench process; then the light
 * run again with the client in a process of its own, so its CPU and GC share nothing with the
 * server's process but the two cores.
 */
import autocannon from 'autocannon';
import type { BenchRow } from './bench-row';
import { clientProcess } from './child-io';

/** GET /route split_optimal, single hop (direct market only), includeQuotes by default: ~15 KB. */
export const ROUTE = '/route?from=USDT&to=BTC&amountIn=20000&strategy=split_optimal&bridges=';
const SECONDS = 5;

export async function benchRest(url: string): Promise<BenchRow[]> {
  const light = await autocannon({ url: url + ROUTE, connections: 4, duration: SECONDS, workers: 1 });
  const heavy = await autocannon({ url: url + ROUTE, connections: 16, duration: SECONDS, workers: 1 });
  const apart = await clientProcess(url + ROUTE, SECONDS, 4);
  const bad = light.non2xx + light.errors + heavy.non2xx + heavy.errors + apart.failed;
  if (bad > 0) throw new Error(`GET /route bench: ${bad} failed requests`);
  const row = (metric: string, value: number, unit: string): BenchRow => ({
    scenario: 'api',
    metric,
    value,
    unit,
  });
  return [
    row('GET /route split_optimal p99 (4 conns)', light.latency.p99, 'ms'),
    row('GET /route split_optimal p50 (4 conns)', light.latency.p50, 'ms'),
    row('GET /route quotes/s (16 conns)', heavy.requests.average, 'req/s'),
    row('GET /route p99 (16 conns)', heavy.latency.p99, 'ms'),
    row('GET /route p99, client process (4 conns)', apart.p99, 'ms'),
    row('GET /route p90, client process (4 conns)', apart.p90, 'ms'),
    row('GET /route max, client process (4 conns)', apart.max, 'ms'),
  ];
}
