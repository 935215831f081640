/**
 * The hostile bench's server, in a process of its own (forked with an IPC channel): the API bench's
 * server (60 venues x 1,000 levels) with the default limits and timeouts, the rate limit raised,
 * and an event-loop delay histogram the parent resets and reads between attacks:
 *   'reset' -> clears it; 'report' -> { maxMs, p99Ms, rssKiB }.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { HTTP_LIMIT_DEFAULTS } from '@app/config';
import { startBenchServer } from './api';

/** What the server reports about the time since the last reset. */
export interface LoopReport {
  readonly maxMs: number;
  readonly p99Ms: number;
  readonly rssKiB: number;
}

async function main(): Promise<void> {
  const server = await startBenchServer(0, HTTP_LIMIT_DEFAULTS);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  process.on('message', (m: unknown) => {
    if (m === 'reset') {
      loop.reset();
      process.send!('reset');
    } else if (m === 'report') {
      const report: LoopReport = {
        maxMs: loop.max / 1e6,
        p99Ms: loop.percentile(99) / 1e6,
        rssKiB: Math.round(process.memoryUsage.rss() / 1024),
      };
      process.send!(report);
    } else if (m === 'stop') {
      void server.close().then(() => process.exit(0));
    }
  });
  process.send!({ url: server.url });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
