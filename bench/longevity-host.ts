/**
 * The longevity bench's server: the real API over an embedded log in a temp directory, holding
 * snapshots of `venues` x 6 markets x `levels` levels, its clock pinned so the books stay fresh,
 * keeping the journal's requestId index beside the data as the service does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_DEFAULTS } from '@app/config';
import type { BookRecord } from '@app/events';
import { journalIndexDir } from '@app/audit';
import { logSink, type EventLog } from '@app/event-log';
import { startApiServer, type ApiServer } from '../apps/api/src/bootstrap';
import { PinnedClock } from '../apps/api/src/clock';
import { closeHost, openFeed, waitCaughtUp } from '../apps/api/src/compose';
import { benchSnapshots } from './market-gen';

const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };

export interface LongevityHost {
  readonly server: ApiServer;
  readonly log: EventLog;
  readonly dataDir: string;
  /** The pinned clock's instant, less 1 ms: when the snapshots were taken. */
  readonly now: number;
  readonly books: BookRecord[];
  close(): Promise<void>;
}

export interface LongevityHostOptions {
  readonly journalResponses: boolean;
  readonly venues?: number;
  readonly levels?: number;
  /** Host the log on these Kafka brokers (under `topicPrefix`) instead of the embedded log. */
  readonly kafka?: { readonly brokers: readonly string[]; readonly topicPrefix: string };
}

export async function startLongevityHost(options: LongevityHostOptions): Promise<LongevityHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-longevity-'));
  const host = await openFeed(
    options.kafka === undefined
      ? { kafkaBrokers: null, dataDir }
      : { kafkaBrokers: options.kafka.brokers, topicPrefix: options.kafka.topicPrefix, dataDir },
    QUIET,
  );
  const now = Date.now();
  const snapshots = benchSnapshots(options.venues ?? 60, options.levels ?? 1000, now);
  await logSink(host.log).write(snapshots);
  await waitCaughtUp(host);
  const server = await startApiServer({
    config: {
      // The service defaults (routing as a record leaves it out), with the clock pinned so books
      // stay fresh.
      ...SERVER_DEFAULTS,
      port: 0,
      host: '127.0.0.1',
      rateLimitRps: 1e9,
      streamMaxPerIp: 1e6,
      journalResponses: options.journalResponses,
    },
    feed: host.feed,
    log: host.log,
    clock: new PinnedClock(now + 1),
    logger: false,
    journalIndexDir: journalIndexDir(dataDir),
  });
  host.server = server;
  return {
    server,
    log: host.log,
    dataDir,
    now,
    books: snapshots.filter((r): r is BookRecord => r.type === 'book' && r.symbol === 'BTC/USDT'),
    close: async () => {
      await closeHost(host);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
