import { relative } from 'node:path';
import type { ReplayConfig } from '@app/config';
import { feedReplay, newestReceivedAt, type ReplayProgress } from '@app/recordings';
import { logSink } from '@app/event-log';
import type { ServiceLogger } from '@app/telemetry';
import { ReplayClock } from '../clock';
import { waitCaughtUp, type ApiHost } from '../compose';

/** How often (wall time) a looping replay says where it is, besides each new pass. */
const PROGRESS_EVERY_MS = 30_000;

/** A recording being fed into the host's log. */
export interface PlayingRecording {
  /** The latest receivedAt fed (the service clock of replay mode). */
  readonly clock: ReplayClock;
  /** Resolves once a non-looping recording is fed and folded (rejects if feeding fails). */
  readonly finished: Promise<void>;
  stop(): Promise<void>;
}

/**
 * `npm start -- --replay <path> [--speed n|max] [--loop]`: feed a recording into the host's log
 * (the demo: `npm run demo` loops replay-data/ for as long as it runs). A looping replay starts
 * after the newest record already in the log and prints a line at each pass and every 30 s.
 */
export async function playRecording(
  host: ApiHost,
  replay: ReplayConfig,
  logger: ServiceLogger,
): Promise<PlayingRecording> {
  const log = logger.child({ component: 'Replay' });
  const clock = new ReplayClock();
  const after = replay.loop ? await newestReceivedAt(host.log) : null;
  if (after !== null) clock.advance(after);
  const abort = new AbortController();
  let lastLoop = -1;
  let lastLineAt = -Infinity;
  const progress = (p: ReplayProgress): void => {
    const now = performance.now();
    if (p.loop === lastLoop && now - lastLineAt < PROGRESS_EVERY_MS) return;
    lastLoop = p.loop;
    lastLineAt = now;
    const span = (p.lastAt - p.firstAt) / 1000;
    log.info(
      `replaying ${relative(process.cwd(), replay.path) || replay.path}: pass ${p.loop + 1}, recorded ${iso(p.recordedAt)} (${((p.recordedAt - p.firstAt) / 1000).toFixed(1)} s of ${span.toFixed(1)} s), served as ${iso(p.servedAt)}`,
      { pass: p.loop + 1, recordedAt: p.recordedAt, servedAt: p.servedAt },
    );
  };
  const feeding = feedReplay({
    path: replay.path,
    speed: replay.speed,
    loop: replay.loop,
    after,
    sink: logSink(host.log),
    signal: abort.signal,
    onFed: (t) => clock.advance(t),
    onSkip: (s) => log.warn('replay line skipped', { ...s }),
    onProgress: replay.loop ? progress : undefined,
    // A full disk or a broker outage pauses the replay; it never takes the API down.
    onWriteError: (e, attempt) => {
      if (attempt % 10 === 0)
        log.warn('log write failed; the replay waits and retries', { attempt, error: e.message });
    },
    onRefused: (r, e) =>
      log.warn('record refused by the log and dropped', { type: r.type, error: e.message }),
  });
  const finished = feeding.then(async (summary) => {
    if (abort.signal.aborted) return;
    await waitCaughtUp(host);
    log.info('replay finished', { ...summary });
  });
  return {
    clock,
    finished,
    stop: async () => {
      abort.abort();
      await feeding.catch(() => undefined);
    },
  };
}

function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}
