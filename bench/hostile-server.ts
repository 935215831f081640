/**
 * The hostile bench's server, in a process of its own (forked with an IPC channel): the API bench's
 * server (60 venues x 1,000 levels) with the default limits and timeouts, the rate limit raised,
 * and an event-loop delay histogram the parent resets and reads between attacks:
 *   'reset' -> clears it; 'report' -> { maxMs, p99Ms, rssKiB }; { moves: n } -> BTC/USDT top-of-book
 *   moves n times a second from now on (0: none), answered 'moves'; 'cpu' -> { cpuMicros } used so far;
 *   { ledger: n } -> n closed streams' open and close records appended to each partition of the
 *   stream ledger (what a resume lookup reads), answered { partitions }.
 * `node dist/bench/hostile-server.js raised` serves with the API bench's raised connection limits.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { HTTP_LIMIT_DEFAULTS } from '@app/config';
import { API_BENCH_LIMITS, startBenchServer } from './api';
import { moveBooks, type BookMoves } from './book-moves';
import { fillLedger } from './ledger-fill';

/** What the server reports about the time since the last reset. */
export interface LoopReport {
  readonly maxMs: number;
  readonly p99Ms: number;
  readonly rssKiB: number;
}

async function main(): Promise<void> {
  // `raised`: the API bench's limits (many streams from one address); default: the service's.
  const server = await startBenchServer(
    0,
    process.argv[2] === 'raised' ? API_BENCH_LIMITS : HTTP_LIMIT_DEFAULTS,
  );
  let moves: BookMoves | null = null;
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
    } else if (typeof m === 'object' && m !== null && 'moves' in m) {
      // Top-of-book moves at this rate (0 stops them); answered once started or stopped.
      const perSec = Number(m.moves);
      void (moves?.stop() ?? Promise.resolve()).then(() => {
        moves = perSec > 0 ? moveBooks(server.snapshots, (r) => server.write(r), perSec) : null;
        process.send!('moves');
      });
    } else if (m === 'cpu') {
      // CPU time used so far (user + system, microseconds): the parent takes differences.
      const u = process.cpuUsage();
      process.send!({ cpuMicros: u.user + u.system });
    } else if (typeof m === 'object' && m !== null && 'ledger' in m) {
      void fillLedger(server.log, Number(m.ledger)).then((partitions) => process.send!({ partitions }));
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
