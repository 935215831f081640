/**
 * Child of bench/import.ts: `replay import <args>` run exactly as the CLI runs it (the same
 * program, progress off), then one JSON line on stdout with its exit code, the process's peak
 * resident memory and its CPU time (all threads), which only the process itself can read.
 */
import { runReplay } from '../apps/replay/src/cli/program';
import { NO_PROGRESS } from '../apps/replay/src/cli/progress';

async function main(): Promise<void> {
  const err: string[] = [];
  const code = await runReplay(['import', ...process.argv.slice(2)], {
    env: process.env,
    cwd: process.cwd(),
    out: () => undefined,
    err: (l) => err.push(l),
    progress: () => NO_PROGRESS,
    stdin: () => Promise.resolve(null),
  });
  const u = process.resourceUsage();
  const cpuS = (u.userCPUTime + u.systemCPUTime) / 1e6;
  process.stdout.write(`${JSON.stringify({ code, maxRssKb: u.maxRSS, cpuS, err })}\n`);
}

void main();
