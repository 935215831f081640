/**
 * Route requests from a process of its own, each answer timed to the microsecond (autocannon
 * reports whole milliseconds, too coarse to see what one parse costs):
 *   node dist/bench/request-client.js <base url> <repeat|vary|post> [connections=4] [seconds=5]
 * `repeat` sends the same GET /route query every time (the API's parse cache answers it), `vary`
 * a different amount each time (every query is parsed and validated), `post` the same JSON body
 * (bodies are never cached). Prints one JSON line: latency quantiles in ms and throughput.
 */
import { Agent, request } from 'node:http';
import { ROUTE } from './api-rest';

export type RequestMode = 'repeat' | 'vary' | 'post';

export interface RequestFigures {
  readonly mode: RequestMode;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly rps: number;
  readonly failed: number;
  /** Requests sent in all, the half-second warm-up's included. */
  readonly sent: number;
}

/** The POST /route body of the same request as the GET bench's query. */
export const ROUTE_BODY = JSON.stringify({
  from: 'USDT',
  to: 'BTC',
  amountIn: 20000,
  strategy: 'split_optimal',
  bridges: [],
});

function send(agent: Agent, base: URL, mode: RequestMode, n: number): Promise<number> {
  const post = mode === 'post';
  // Amounts 20000.000001 .. 20000.1: a new query each time, the same solve.
  const path =
    mode === 'vary' ? ROUTE.replace('amountIn=20000', `amountIn=${20000 + (n % 100_000) / 1e6}`) : ROUTE;
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: post ? 'POST' : 'GET',
        path: post ? '/route' : path,
        headers: post ? { 'content-type': 'application/json', 'content-length': ROUTE_BODY.length } : {},
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(post ? ROUTE_BODY : undefined);
  });
}

/** `connections` callers, each sending its next request when its answer is complete. */
export async function drive(
  baseUrl: string,
  mode: RequestMode,
  connections: number,
  seconds: number,
): Promise<RequestFigures> {
  const base = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let failed = 0;
  let n = 0;
  const warmUntil = performance.now() + 500;
  const endAt = warmUntil + seconds * 1000;
  const caller = async (): Promise<void> => {
    for (;;) {
      const t0 = performance.now();
      if (t0 >= endAt) return;
      const status = await send(agent, base, mode, n++);
      if (t0 < warmUntil) continue;
      if (status !== 200) failed++;
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: connections }, caller));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number): number =>
    +(latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] ?? NaN).toFixed(3);
  return {
    mode,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: q(1),
    rps: Math.round(latencies.length / seconds),
    failed,
    sent: n,
  };
}

async function main(): Promise<void> {
  const [url, mode, conns = '4', secs = '5'] = process.argv.slice(2);
  if (url === undefined || (mode !== 'repeat' && mode !== 'vary' && mode !== 'post'))
    throw new Error('usage: request-client <base url> <repeat|vary|post> [connections] [seconds]');
  process.stdout.write(`${JSON.stringify(await drive(url, mode, Number(conns), Number(secs)))}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
