/**
 * Scenario `api-explain`: GET /route/explain against the plain GET /route with the same
 * parameters, on the API bench's server (60 venues x 1,000 levels per side), each loaded by an
 * external autocannon client in a process of its own (bench/api-client.ts). The two endpoints
 * alternate, three rounds each, so load drift on the shared machine falls on both alike. With the
 * server saturated (8 connections) the server's cost per request is 1 / throughput; the ratio of
 * throughputs is the cost of the proof and the counterfactuals per request.
 */
import type { ClientFigures } from './api-client';
import { startBenchServer } from './api';
import type { BenchRow } from './bench-row';
import { clientProcess } from './child-io';

const QUERY = 'from=USDT&to=BTC&amountIn=20000&strategy=split_optimal&bridges=';
const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 8;

async function load(url: string): Promise<ClientFigures> {
  const f = await clientProcess(url, SECONDS, CONNECTIONS);
  if (f.failed > 0) throw new Error(`${url}: ${f.failed} failed requests`);
  return f;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchApiExplain(): Promise<BenchRow[]> {
  const server = await startBenchServer();
  try {
    const plain: ClientFigures[] = [];
    const explained: ClientFigures[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      plain.push(await load(`${server.url}/route?${QUERY}`));
      explained.push(await load(`${server.url}/route/explain?${QUERY}`));
    }
    const rps = median(plain.map((f) => f.rps));
    const rpsExplain = median(explained.map((f) => f.rps));
    const row = (metric: string, value: number, unit: string): BenchRow => ({
      scenario: 'api-explain',
      metric,
      value,
      unit,
    });
    return [
      row(`GET /route req/s (${CONNECTIONS} conns, external client)`, rps, 'req/s'),
      row(`GET /route/explain req/s (${CONNECTIONS} conns, external client)`, rpsExplain, 'req/s'),
      row('GET /route/explain cost per request vs GET /route (ratio of req/s)', rps / rpsExplain, 'x'),
      row('GET /route p50', median(plain.map((f) => f.p50)), 'ms'),
      row('GET /route/explain p50', median(explained.map((f) => f.p50)), 'ms'),
      row('GET /route p99', median(plain.map((f) => f.p99)), 'ms'),
      row('GET /route/explain p99', median(explained.map((f) => f.p99)), 'ms'),
    ];
  } finally {
    await server.close();
  }
}
