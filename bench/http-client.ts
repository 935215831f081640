/**
 * The `http` scenario's load generator, in a process of its own (forked by bench/http.ts, so it
 * shares nothing with the servers but the machine): autocannon, one run per IPC order, answered
 * with that run's figures. Latencies come from autocannon's event for each response (fractions
 * of a millisecond; its own histogram keeps whole milliseconds, too coarse for a p50 of 2 ms).
 */
import autocannon from 'autocannon';
import { quantile } from './bench-row';

export interface LoadOrder {
  readonly url: string;
  /** Path and query of every request. */
  readonly path: string;
  /** Rewrite amountIn for each request (variedAmount), so no two queries are the same. */
  readonly vary: boolean;
  readonly connections: number;
  readonly seconds: number;
}

export interface LoadFigures {
  /** 2xx answers a second. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly ok: number;
  /** Answers other than 2xx, and connection errors. */
  readonly failed: number;
}

/**
 * The `i`th amount of a varied run: 25000 becomes 25000.0001, 25000.0002, ... (a new query for
 * each request, deterministic, all within 0.4 % of the fixed query's amount).
 */
export function variedPath(path: string, i: number): string {
  return path.replace(
    /amountIn=(\d+)/,
    (_, a: string) => `amountIn=${Number(a) + ((i % 1_000_000) + 1) / 10_000}`,
  );
}

let sent = 0;

async function load(o: LoadOrder): Promise<LoadFigures> {
  const latencies: number[] = [];
  const run = autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.seconds,
    requests: [
      o.vary
        ? {
            method: 'GET',
            path: o.path,
            setupRequest: (req) => ({ ...req, path: variedPath(o.path, sent++) }),
          }
        : { method: 'GET', path: o.path },
    ],
  });
  run.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const r = await run;
  return {
    rps: latencies.length / r.duration,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    ok: latencies.length,
    failed: r.non2xx + r.errors,
  };
}

if (require.main === module) {
  process.on('message', (o: LoadOrder) => {
    load(o).then(
      (f) => process.send!(f),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  });
  process.on('disconnect', () => process.exit(0));
}
