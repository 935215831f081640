/**
 * `route-service replay <command>` (npm run replay -- <command>): reproduce journalled quotes,
 * audit a time range, export the log, backtest routing strategies, or generate the synthetic
 * market data (docs/replay.md). `--help` on every command.
 */
import { runReplay } from './cli/program';
import { progress } from './cli/progress';

/** All of stdin, or null when it is a terminal (nobody piped anything). */
async function readStdin(): Promise<string | null> {
  if (process.stdin.isTTY) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// `replay quote ... | head`: a reader that stops early is not an error of ours.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

runReplay(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(`${t}\n`),
  progress: (label, total, unit) =>
    progress(label, total, unit, { stream: process.stderr, tty: process.stderr.isTTY === true }),
  stdin: readStdin,
})
  .then((code) => {
    process.exitCode = code;
  })
  .catch((e: unknown) => {
    process.stderr.write(`replay failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
