import { Command, CommanderError } from 'commander';
import { SOLVER_VERSION } from '@app/routing';
import { registerAudit } from '../audit/audit-command';
import { registerBacktest } from '../backtest/backtest-command';
import { registerCompare } from '../compare/compare-command';
import { registerDecay } from '../explain/decay-command';
import { registerExplain } from '../explain/explain-command';
import { registerGenerate } from '../generate/generate-command';
import { registerImport } from '../import/import-command';
import { registerQuote } from '../quote/quote-command';
import { registerRecord } from '../record/record-command';
import { registerStream } from '../stream/stream-command';
import { registerVerify } from '../verify/verify-command';
import type { CliContext } from './context';
import { envTable, packageVersion, UsageError } from '@app/config';

/**
 * What a subcommand module exports: add its command (flags, help, action) to the `replay` program.
 * The action resolves to the process exit code. To add one, write the module and list it here.
 */
export type RegisterCommand = (program: Command, ctx: CliContext, done: (code: number) => void) => void;

const COMMANDS: readonly RegisterCommand[] = [
  registerQuote,
  registerStream,
  registerExplain,
  registerAudit,
  registerVerify,
  registerCompare,
  registerDecay,
  registerRecord,
  registerBacktest,
  registerGenerate,
  registerImport,
];

const LOG_HELP = `
The event log: Kafka when KAFKA_BROKERS is set (TOPIC_PREFIX applies), otherwise the embedded log
in --data-dir, else DATA_DIR. Commands only read it: a directory that does not exist is an error
and is never created.

Environment (default, meaning):
${envTable('replay')}

Exit status: 0 success; 1 a replay differs or cannot be reproduced; 2 bad usage (unknown flag,
bad value, missing path); 3 nothing journalled for a requestId or in a range.`;

/** The `replay` command line (commander): subcommands, --help on each, --version. */
export function replayProgram(ctx: CliContext, done: (code: number) => void): Command {
  const program = new Command('route-service replay')
    .description(
      'Reproduce journalled quotes, audit a range, export the log, backtest, generate data, import tardis.dev data.',
    )
    .version(`route-service ${packageVersion()} (solver ${SOLVER_VERSION})`, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.out(s),
      writeErr: (s) => ctx.err(s.replace(/\n$/, '')),
    })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', LOG_HELP);
  for (const register of COMMANDS) register(program, ctx, done);
  return program;
}

/** Run `replay <argv>`; resolves to the exit status. Never throws for bad input. */
export async function runReplay(argv: readonly string[], ctx: CliContext): Promise<number> {
  let code = 0;
  const program = replayProgram(ctx, (c) => (code = c));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit 0; everything else commander rejects is usage (2).
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof UsageError) {
      ctx.err(e.message);
      return 2;
    }
    throw e;
  }
}
