import type { TopicName } from '@app/events';
import { TurnBudget } from '../turn';
import type { HealthRegistry } from '../log-health';
import type { EmbeddedRetention } from './embedded-options';
import type { LogFiles } from './log-files';
import { RETENTION_TOPICS, retainSteps, type RetentionPolicy, type RetentionResult } from './retention';
import type { Writers } from './topic-writers';

export interface PassContext {
  readonly policy: RetentionPolicy;
  readonly now: number;
  readonly files: LogFiles;
  readonly registry: HealthRegistry;
  readonly indexIntervalBytes: number;
  /** Called after a partition changed, so cached readers of it are dropped. */
  readonly changed: (topic: TopicName, partition: number) => void;
}

/** The partitions a pass visits, in order. */
function targets(writers: ReadonlyMap<TopicName, Writers>): [TopicName, Writers, number][] {
  const out: [TopicName, Writers, number][] = [];
  for (const [topic, w] of writers)
    if (RETENTION_TOPICS.includes(topic))
      for (let p = 0; p < w.partitions.length; p++) out.push([topic, w, p]);
  return out;
}

/**
 * Retention of one partition, as steps (run to the end at once, or spread over turns); its marks
 * writer reopens the file when retention replaced it, in the turn that replaced it.
 */
function* retainOne(
  topic: TopicName,
  w: Writers,
  p: number,
  ctx: PassContext,
  abort: () => boolean = () => false,
): Generator<void, RetentionResult | null, void> {
  const pw = w.partitions[p]!;
  let result: RetentionResult | null = null;
  let failed = true;
  try {
    result = yield* retainSteps(
      {
        dir: pw.dir,
        topic,
        partition: p,
        activeBase: pw.activeBase,
        policy: ctx.policy,
        now: ctx.now,
        files: ctx.files,
        health: ctx.registry,
        indexIntervalBytes: ctx.indexIntervalBytes,
      },
      abort,
    );
    failed = false;
  } finally {
    // The marks file may have been replaced whole: append to the new one from now on.
    if (failed || result !== null) w.marks[p]?.reopen();
  }
  if (result !== null) ctx.changed(topic, p);
  return result;
}

/** Run steps to their end now. */
function toEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const s = steps.next();
    if (s.done === true) return s.value;
  }
}

/** One retention pass over the topics whose writers this process holds. */
export function retentionPass(writers: ReadonlyMap<TopicName, Writers>, ctx: PassContext): RetentionResult[] {
  const out: RetentionResult[] = [];
  for (const [topic, w, p] of targets(writers)) {
    const r = toEnd(retainOne(topic, w, p, ctx));
    if (r !== null) out.push(r);
  }
  return out;
}

/** What a RetentionRunner needs of its log (everything but the policy and the time). */
export type RunnerContext = Omit<PassContext, 'policy' | 'now'> & {
  readonly writers: ReadonlyMap<TopicName, Writers>;
};

/** Runs retention passes for one EmbeddedLog: on demand (`run`) and on the configured timer. */
export class RetentionRunner {
  private readonly timer: NodeJS.Timeout | null;
  private stopped = false;
  private running = false;

  constructor(
    private readonly settings: EmbeddedRetention | undefined,
    private readonly ctx: RunnerContext,
  ) {
    this.timer =
      settings === undefined ? null : setInterval(() => this.runOnTimer(), settings.checkEveryMs ?? 60_000);
    this.timer?.unref();
  }

  /** One pass judged at `now`; [] when the log has no retention (or is read-only). */
  run(now: number): RetentionResult[] {
    if (this.settings === undefined) return [];
    return retentionPass(this.ctx.writers, { ...this.ctx, policy: this.settings.policy, now });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
  }

  /**
   * The timer's pass: one partition after another, each spread over event-loop turns of at most
   * about TURN_MS (the compaction yields per batch it reads), so a pass never holds up
   * appends, a feed or the API in the same process for long. A log closed meanwhile, or a topic
   * whose writers went, commits nothing.
   */
  private runOnTimer(): void {
    const s = this.settings;
    if (s === undefined || this.stopped || this.running) return;
    this.running = true;
    const ctx: PassContext = { ...this.ctx, policy: s.policy, now: (s.clock ?? Date.now)() };
    const results: RetentionResult[] = [];
    const targetsLeft = targets(this.ctx.writers);
    let current: Generator<void, RetentionResult | null, void> | null = null;
    let where = '';
    const turn = (): void => {
      const budget = new TurnBudget();
      try {
        while (!budget.due()) {
          if (current === null) {
            const next = targetsLeft.shift();
            if (this.stopped || next === undefined) {
              this.running = false;
              if (results.length > 0 && !this.stopped) s.onPass?.(results);
              return;
            }
            const [topic, w, p] = next;
            // A topic closed meanwhile is skipped (its writers are gone).
            if (this.ctx.writers.get(topic) !== w) continue;
            where = `${topic}/${p}`;
            current = retainOne(topic, w, p, ctx, () => this.stopped || this.ctx.writers.get(topic) !== w);
          }
          const step = current.next();
          if (step.done === true) {
            current = null;
            if (step.value !== null) results.push(step.value);
          }
        }
      } catch (e) {
        current = null;
        this.ctx.registry.problem(
          `retention pass of ${where} failed (tried again at the next pass): ${(e as Error).message}`,
        );
      }
      setImmediate(turn);
    };
    turn();
  }
}

/** One log line for what a pass removed (the services print it). */
export function retentionLine(results: readonly RetentionResult[]): string {
  const parts = results.map(
    (r) =>
      `${r.topic}/${r.partition}: ${r.segmentsRemoved} segment(s) removed, horizon offset ${r.retainedFrom}, ${r.keptEntries} entries kept below it, ${r.bytesBefore} -> ${r.bytesAfter} bytes`,
  );
  return `event log retention: ${parts.join('; ')}`;
}
