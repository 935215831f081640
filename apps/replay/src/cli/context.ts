import type { LogConfig } from '@app/config';
import type { EventLog } from '@app/event-log';
import type { Progress } from './progress';

/** What a replay command may touch: the process's environment and streams, passed in (tests pass their own). */
export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** The command's output (stdout): recomputed responses, lists. */
  readonly out: (text: string) => void;
  /** One line of diagnostics on stderr (the newline is added). */
  readonly err: (line: string) => void;
  /** Progress of a long-running step (a bar on a terminal, periodic plain lines otherwise). */
  readonly progress: (label: string, total: number, unit: string) => Progress;
  /** All of standard input, for ids given on stdin; null when stdin is a terminal (nothing piped). */
  readonly stdin: () => Promise<string | null>;
  /** Opens the event log a command reads; the default opens it read-only (open-log.ts). */
  readonly openLog?: (config: LogConfig) => EventLog;
}
