import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ServiceLogger } from '@app/telemetry';
import type { Metric, Registry } from 'prom-client';
import type { FromIngestor, IngestWorkerData, MetricFamily, ToIngestor } from './ingest-messages';

/** A scrape waits this long for the thread's answer, then shows the families empty. */
const METRICS_WAIT_MS = 2_000;

/**
 * The ingestor of `npm start` on a thread of its own (ingest-worker.ts; docs/deploy.md
 * "Processes"). `open` resolves once the thread has read VENUES_CONFIG (or rejects with its
 * problems); `start` connects the venues. The thread's log lines come to `logger`, its venue
 * metrics into the API's registry (asked at each scrape). A thread that ends on its own (an error
 * nothing contained) ends the process with status 1, as that error did when the ingestor ran on
 * the main thread: a supervisor restarts it, rather than an API serving books that only age.
 */
export class IngestThread {
  private stopping: Promise<void> | null = null;
  private readonly waiting = new Map<number, (families: readonly MetricFamily[]) => void>();
  private nextId = 0;
  private onStopped: (() => void) | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly logger: ServiceLogger,
    private readonly families: readonly MetricFamily[],
  ) {}

  static open(
    data: IngestWorkerData,
    logger: ServiceLogger,
    fatal: (message: string) => void,
  ): Promise<IngestThread> {
    const worker = new Worker(join(__dirname, 'ingest-worker.js'), { workerData: data });
    return new Promise((resolve, reject) => {
      let thread: IngestThread | null = null;
      worker.on('message', (m: FromIngestor) => {
        if (m.t === 'ready') resolve((thread = new IngestThread(worker, logger, m.families)));
        else if (m.t === 'refused')
          reject(Object.assign(new Error(m.message), { name: 'VenuesConfigError' }));
        else thread?.receive(m);
      });
      worker.on('error', (e) => logger.error('ingestor thread failed', { error: e.stack ?? e.message }));
      worker.on('exit', (code) => {
        if (thread === null) return reject(new Error(`the ingestor thread ended (exit code ${code})`));
        thread.onStopped?.();
        if (thread.stopping === null) fatal(`the ingestor thread ended (exit code ${code})`);
      });
    });
  }

  /** Connect the venues (after the API listens: it answers first). */
  start(): void {
    this.post({ t: 'start' });
  }

  /** The venues' metric families in `registry`, as the thread has them at each scrape. */
  register(registry: Registry): void {
    let asked: { at: number; families: Promise<readonly MetricFamily[]> } | null = null;
    const current = (): Promise<readonly MetricFamily[]> => {
      // One question per scrape, whichever family asks first.
      if (asked === null || performance.now() - asked.at > 100)
        asked = { at: performance.now(), families: this.ask() };
      return asked.families;
    };
    for (const family of this.families) {
      const empty = { ...family, values: [] };
      const shim = {
        name: family.name,
        help: family.help,
        type: family.type,
        get: async () => (await current()).find((f) => f.name === family.name) ?? empty,
      };
      registry.registerMetric(shim as unknown as Metric);
    }
  }

  /**
   * Stop the venues, write what they produced and close the thread's log (the ingestor's own
   * stop, giving up on a log that keeps refusing after 5 s), then end the thread.
   */
  stop(): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => {
      this.onStopped = resolve;
      this.post({ t: 'stop' });
    }).then(() => this.worker.terminate().then(() => undefined));
    return this.stopping;
  }

  private ask(): Promise<readonly MetricFamily[]> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, []), METRICS_WAIT_MS);
      this.waiting.set(id, (families) => {
        clearTimeout(timer);
        resolve(families);
      });
      if (this.stopping !== null) this.settle(id, []);
      else this.post({ t: 'metrics', id });
    });
  }

  private settle(id: number, families: readonly MetricFamily[]): void {
    const done = this.waiting.get(id);
    this.waiting.delete(id);
    done?.(families);
  }

  private receive(m: FromIngestor): void {
    if (m.t === 'log') this.logger[m.level](m.message, m.fields);
    else if (m.t === 'metrics') this.settle(m.id, m.families);
    else if (m.t === 'stopped') this.onStopped?.();
  }

  private post(message: ToIngestor): void {
    this.worker.postMessage(message);
  }
}
