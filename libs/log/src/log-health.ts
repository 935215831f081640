/** A damaged stretch of one partition that readers skip: named, counted, never silently cut. */
export interface LogDamage {
  readonly topic: string;
  readonly partition: number;
  /** Entries [fromOffset, toOffset) cannot be read; equal when only bytes (no entry) were lost. */
  readonly fromOffset: number;
  readonly toOffset: number;
  /** The file and byte range the damage was found in. */
  readonly file: string;
  readonly position: number;
  readonly bytes: number;
  readonly reason: string;
}

/** What a log has found wrong with its data since it was opened (EventLog.health()). */
export interface LogHealth {
  /** Damaged stretches found, the first MAX_LISTED of them. */
  readonly damage: readonly LogDamage[];
  /** Entries lost to damage, summed over every stretch found. */
  readonly damagedEntries: number;
  /** Other named problems: a cut tail, a rebuilt or unusable index, a stray file, ... (first MAX_LISTED). */
  readonly problems: readonly string[];
}

export const HEALTHY: LogHealth = Object.freeze({ damage: [], damagedEntries: 0, problems: [] });

const MAX_LISTED = 100;

/** Where a log reports what it finds: one line per finding, to the process's log. */
export type ProblemSink = (message: string) => void;

/** Default sink: one JSON line on stderr (stdout stays free for data). */
export const stderrProblems: ProblemSink = (message) =>
  process.stderr.write(`${JSON.stringify({ level: 'warn', time: new Date().toISOString(), message })}\n`);

/**
 * Collects damage and problems, once each however many readers meet them (a follow, a read and
 * the high-water mark scan all walk the same bytes), and says each one on the sink when first met.
 */
export class HealthRegistry {
  private readonly seen = new Set<string>();
  private readonly damage: LogDamage[] = [];
  private readonly problems: string[] = [];
  private damagedEntries = 0;

  constructor(private readonly sink: ProblemSink = stderrProblems) {}

  /** Record a damaged stretch; true when it was new. */
  damaged(d: LogDamage): boolean {
    const id = `d|${d.file}|${d.position}`;
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    this.damagedEntries += d.toOffset - d.fromOffset;
    if (this.damage.length < MAX_LISTED) this.damage.push(d);
    const entries =
      d.toOffset > d.fromOffset
        ? `entries ${d.fromOffset}..${d.toOffset - 1} (${d.toOffset - d.fromOffset}) skipped`
        : `no entry lost`;
    this.sink(
      `event log damage in ${d.topic}/${d.partition}: ${d.reason}; ${entries}; ${d.file} bytes ${d.position}..${d.position + d.bytes - 1}`,
    );
    return true;
  }

  /** Record a named problem once (by `id`, default the message itself). */
  problem(message: string, id = message): void {
    if (this.seen.has(`p|${id}`)) return;
    this.seen.add(`p|${id}`);
    if (this.problems.length < MAX_LISTED) this.problems.push(message);
    this.sink(message);
  }

  snapshot(): LogHealth {
    return { damage: [...this.damage], damagedEntries: this.damagedEntries, problems: [...this.problems] };
  }
}
