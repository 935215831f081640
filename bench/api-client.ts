/**
 * GET /route load from a process of its own (the API bench runs it; also by hand against
 * `node dist/bench/api-server.js`):
 *   node dist/bench/api-client.js <route url> [connections=4] [seconds=5]
 * Prints the latency distribution (ms) and throughput as one JSON line.
 */
import autocannon from 'autocannon';

export interface ClientFigures {
  readonly connections: number;
  readonly p50: number;
  readonly p90: number;
  readonly p97_5: number;
  readonly p99: number;
  readonly p99_9: number;
  readonly max: number;
  readonly mean: number;
  readonly rps: number;
  readonly failed: number;
}

async function main(): Promise<void> {
  const [url, conns = '4', secs = '5'] = process.argv.slice(2);
  if (url === undefined) throw new Error('usage: api-client <route url> [connections] [seconds]');
  const connections = Number(conns);
  const r = await autocannon({ url, connections, duration: Number(secs) });
  const l = r.latency;
  const out: ClientFigures = {
    connections,
    p50: l.p50,
    p90: l.p90,
    p97_5: l.p97_5,
    p99: l.p99,
    p99_9: l.p99_9,
    max: l.max,
    mean: +l.average.toFixed(2),
    rps: r.requests.average,
    failed: r.non2xx + r.errors,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
