/**
 * `npm run replay -- <command>`: reproduce a journalled quote, export the log, backtest routing
 * strategies, or generate the synthetic market data (docs/replay.md).
 */
import { UsageError } from './cli/args';
import { runCommand } from './cli/run-command';

const USAGE = `usage: npm run replay -- <command>
  quote <requestId> [--response FILE] [--data-dir DIR]
                                             recompute a journalled quote; exit 0 only when byte-identical
  record --out DIR [--data-dir DIR]          copy the log's book/market/venue records to events.md JSON Lines
  backtest --from MS --to MS --schedule FILE [--events FILE|DIR] [--out DIR] [--data-dir DIR]
  generate --out DIR [--seed N] [--duration-s S] [--rate-scale X] [--venues N] [--start MS]
The event log is Kafka when KAFKA_BROKERS is set, else the embedded log in --data-dir / DATA_DIR.`;

runCommand(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(`${t}\n`),
  stderrIsTty: process.stderr.isTTY,
})
  .then((code) => {
    process.exitCode = code;
  })
  .catch((e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`replay failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
