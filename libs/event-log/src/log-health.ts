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
  /** Named problems that need a person: a stray file, a file that cannot be written, ... (first MAX_LISTED). */
  readonly problems: readonly string[];
  /** Repairs made and work-arounds in use, said so an operator knows: a torn tail cut, an index rebuilt. */
  readonly notes: readonly string[];
}

export const HEALTHY: LogHealth = Object.freeze({ damage: [], damagedEntries: 0, problems: [], notes: [] });

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
  private readonly notes: string[] = [];
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

  /** Record, once, a problem that needs a person. */
  problem(message: string): void {
    this.add(this.problems, message);
  }

  /** Record, once, a repair made or a work-around in use. */
  note(message: string): void {
    this.add(this.notes, message);
  }

  snapshot(): LogHealth {
    return {
      damage: [...this.damage],
      damagedEntries: this.damagedEntries,
      problems: [...this.problems],
      notes: [...this.notes],
    };
  }

  private add(list: string[], message: string): void {
    if (this.seen.has(`m|${message}`)) return;
    this.seen.add(`m|${message}`);
    if (list.length < MAX_LISTED) list.push(message);
    this.sink(message);
  }
}
