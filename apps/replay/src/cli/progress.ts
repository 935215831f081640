import { Presets, SingleBar } from 'cli-progress';

/** Progress of one long-running command: a bar on a terminal, plain periodic lines otherwise. */
export interface Progress {
  /** `done` of the total so far; `note` is shown after the figures (what is being worked on). */
  update(done: number, note?: string): void;
  /** Draw the final state and end the line (the bar); plain mode prints nothing more. */
  finish(): void;
}

export interface ProgressOptions {
  /** Where it is drawn: stderr, so stdout stays the command's output. */
  readonly stream: NodeJS.WritableStream;
  /** A terminal gets a redrawn bar; anything else a plain line every `plainEveryMs`. */
  readonly tty: boolean;
  readonly plainEveryMs?: number;
  /** Milliseconds clock of the plain lines (an argument so a test can move it). */
  readonly now?: () => number;
}

/** Progress with no output at all (tests, and totals of zero). */
export const NO_PROGRESS: Progress = { update: () => undefined, finish: () => undefined };

/**
 * On a terminal, a bar from cli-progress (maintained, one small dependency): it throttles redraws,
 * estimates the time left, hides the cursor and redraws in place even inside a synchronous loop.
 * Elsewhere (a log file, CI) a line such as `backtest 40% 45/111 instants, 2s elapsed, eta 3s`
 * every `plainEveryMs` (5 s), checked on each update so it also works while the event loop is busy.
 */
export function progress(label: string, total: number, unit: string, o: ProgressOptions): Progress {
  if (total <= 0) return NO_PROGRESS;
  const now = o.now ?? (() => performance.now());
  const start = now();
  const figures = (done: number, note: string): string => {
    const secs = (now() - start) / 1000;
    const eta = done > 0 && done < total ? `, eta ${Math.round((secs / done) * (total - done))}s` : '';
    const pct = String(Math.floor((done / total) * 100)).padStart(3);
    return `${pct}% ${done}/${total} ${unit}, ${Math.round(secs)}s elapsed${eta}${note === '' ? '' : `, ${note}`}`;
  };
  if (!o.tty) {
    const every = o.plainEveryMs ?? 5000;
    let last = start;
    return {
      update(done, note = '') {
        const t = now();
        if (t - last < every) return;
        last = t;
        o.stream.write(`${label} ${figures(Math.min(done, total), note)}\n`);
      },
      finish: () => undefined,
    };
  }
  const bar = new SingleBar(
    {
      stream: o.stream,
      format: `${label} [{bar}] {percentage}% {value}/{total} ${unit}, {duration_formatted} elapsed, eta {eta_formatted} {note}`,
      hideCursor: true,
      clearOnComplete: false,
      fps: 10,
      barsize: 30,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0, { note: '' });
  let stopped = false;
  return {
    update(done, note) {
      if (!stopped) bar.update(Math.min(done, total), note === undefined ? {} : { note });
    },
    finish() {
      if (stopped) return;
      stopped = true;
      bar.update(total);
      bar.stop();
    },
  };
}
