/**
 * The API bench's server alone, in its own process, so it can be profiled (`node --cpu-prof`) and
 * driven by a client in another process:
 *   node --max-semi-space-size=64 [--cpu-prof] dist/bench/api-server.js [port]
 *   npx autocannon -c 4 -d 10 --latency 'http://127.0.0.1:<port>/route?...'
 * Prints one JSON line with the URL once listening; SIGINT/SIGTERM closes it cleanly (so a CPU
 * profile is written).
 */
import { createLogger } from '@app/telemetry';
import { onShutdown } from '../apps/api/src/compose';
import { startBenchServer } from './api';
import { ROUTE } from './api-rest';

async function main(): Promise<void> {
  const port = process.argv[2] === undefined ? 0 : Number(process.argv[2]);
  if (!Number.isInteger(port) || port < 0) throw new Error(`bad port '${process.argv[2]}'`);
  const server = await startBenchServer(port);
  process.stdout.write(`${JSON.stringify({ url: server.url, route: server.url + ROUTE })}\n`);
  const logger = createLogger({ level: 'warn', format: 'json', destination: 2 });
  onShutdown(() => server.close(), { deadlineMs: 30_000, logger, pending: () => null });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
