import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { parseRecord, type BookRecord } from '@app/events';
import { EmbeddedLog } from '@app/event-log';
import { tempDir, waitFor } from '@test/support';

const ROOT = resolve(__dirname, '../../..');
const ENTRY = join(ROOT, 'dist/apps/ingestor/src/main.js');

/** One parsed log line of the child (JSON lines on stderr). */
export interface LogLine {
  readonly level: string | number;
  readonly msg?: string;
  readonly message?: string;
  readonly [key: string]: unknown;
}

/** One metric sample: its labels and value. */
export interface Sample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * The built ingestor (`route-service ingestor`) in a child process of its own, on an embedded log
 * in a temporary directory, with VENUES_CONFIG written from `venuesConfig` and METRICS_PORT=0:
 * a rejection that escaped would end this process, not the test runner's.
 */
export class IngestorProcess {
  readonly dir = tempDir('chaos');
  readonly lines: LogLine[] = [];
  readonly stderr: string[] = [];
  private child: ChildProcess | null = null;
  private metricsUrl: string | null = null;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  constructor(private readonly venuesConfig: unknown) {}

  async start(env: Record<string, string> = {}): Promise<this> {
    const file = join(this.dir.path, 'venues.json');
    writeFileSync(file, JSON.stringify(this.venuesConfig));
    this.child = spawn(process.execPath, [ENTRY], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: join(this.dir.path, 'data'),
        VENUES_CONFIG: file,
        METRICS_PORT: '0',
        LOG_FORMAT: 'json',
        LOG_LEVEL: process.env.CHAOS_LOG_LEVEL ?? 'info',
        LOG_SUMMARY_MS: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let partial = '';
    const onData = (chunk: Buffer): void => {
      partial += chunk.toString('utf8');
      let nl: number;
      while ((nl = partial.indexOf('\n')) >= 0) {
        const line = partial.slice(0, nl);
        partial = partial.slice(nl + 1);
        this.stderr.push(line);
        try {
          const parsed = JSON.parse(line) as LogLine;
          this.lines.push(parsed);
          if (parsed.url !== undefined && (parsed.msg ?? parsed.message) === 'metrics listening')
            this.metricsUrl = typeof parsed.url === 'string' ? parsed.url : null;
        } catch {
          // A plain line (a crash's stack): kept in stderr.
        }
      }
    };
    this.child.stderr!.on('data', onData);
    this.child.stdout!.on('data', onData);
    this.child.on('exit', (code, signal) => (this.exit = { code, signal }));
    await waitFor(
      'the ingestor to serve metrics',
      () => this.metricsUrl !== null || this.exit !== null,
      30_000,
    );
    if (this.exit !== null) throw new Error(`ingestor exited at start: ${this.stderr.join('\n')}`);
    return this;
  }

  get alive(): boolean {
    return this.exit === null;
  }

  /** Samples of metric `name` (at most one scrape per call). */
  async metric(name: string): Promise<Sample[]> {
    if (this.metricsUrl === null) return [];
    const res = await fetch(this.metricsUrl);
    const family = parsePrometheusTextFormat(await res.text()).find((f) => f.name === name);
    return (family?.metrics ?? []).map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) }));
  }

  /** Per venue: `ingestor_venue_events_total{event}`, states, books and good books, in one scrape. */
  async venues(): Promise<Map<string, VenueView>> {
    if (this.metricsUrl === null) return new Map();
    const res = await fetch(this.metricsUrl);
    const families = parsePrometheusTextFormat(await res.text());
    const out = new Map<string, VenueView>();
    const view = (venue: string): VenueView => {
      let v = out.get(venue);
      if (v === undefined) out.set(venue, (v = { state: '', books: 0, goodBooks: 0, events: {} }));
      return v;
    };
    for (const f of families) {
      for (const m of f.metrics) {
        const venue = m.labels?.venue;
        if (venue === undefined) continue;
        const value = Number(m.value);
        if (f.name === 'ingestor_venue_events_total') view(venue).events[m.labels?.event ?? ''] = value;
        else if (f.name === 'ingestor_venue_state' && value === 1) view(venue).state = m.labels?.state ?? '';
        else if (f.name === 'ingestor_venue_books') view(venue).books = value;
        else if (f.name === 'ingestor_venue_good_books') view(venue).goodBooks = value;
      }
    }
    return out;
  }

  /** Every book record the ingestor wrote so far, read back from its embedded log (read-only). */
  async bookRecords(): Promise<BookRecord[]> {
    const log = new EmbeddedLog({ dataDir: join(this.dir.path, 'data'), readOnly: true });
    try {
      const out: BookRecord[] = [];
      const partitions = await log.partitions('books');
      for (let p = 0; p < partitions; p++) {
        for (let offset = 0; ;) {
          const batch = await log.read('books', p, offset, 10_000);
          if (batch.length === 0) break;
          for (const e of batch) {
            const parsed = parseRecord(JSON.parse(e.value));
            if (parsed.ok && parsed.record.type === 'book') out.push(parsed.record);
          }
          offset = batch.at(-1)!.offset + 1;
        }
      }
      return out;
    } finally {
      await log.close();
    }
  }

  /** SIGTERM and wait for the exit (the ingestor stops its venues and closes the log). */
  async stop(): Promise<void> {
    if (this.child !== null && this.exit === null) {
      this.child.kill('SIGTERM');
      await waitFor('the ingestor to exit', () => this.exit !== null, 20_000).catch(() =>
        this.child?.kill('SIGKILL'),
      );
    }
    this.dir.remove();
  }
}

export interface VenueView {
  state: string;
  books: number;
  goodBooks: number;
  events: Record<string, number>;
}
