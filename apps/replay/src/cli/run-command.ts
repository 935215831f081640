import { generateCommand } from '../generate/generate-command';
import { quoteCommand } from '../quote/quote-command';
import { recordCommand } from '../record/record-command';
import { backtestCommand } from '../backtest/backtest-command';
import { UsageError } from './args';
import { logConfig, openLog } from './open-log';

export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly out: (text: string) => void;
  /** One line of diagnostics (the newline is added). */
  readonly err: (line: string) => void;
  readonly stderrIsTty: boolean;
}

/** Dispatch a replay command; resolves to the process exit code. Usage errors throw UsageError. */
export async function runCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = argv;
  const open = (args: Parameters<typeof logConfig>[0]) => openLog(logConfig(args, ctx.env, ctx.cwd));
  switch (command) {
    case 'quote':
      return quoteCommand(rest, open, { out: ctx.out, err: ctx.err }, ctx.cwd);
    case 'record':
      return recordCommand(rest, open, ctx);
    case 'backtest':
      return backtestCommand(rest, open, ctx);
    case 'generate':
      return generateCommand(rest, ctx.cwd, ctx.err);
    case undefined:
      throw new UsageError('a command is required');
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}
