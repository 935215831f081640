import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_DEFAULTS, type ServerConfig } from '@app/config';
import type { EventRecord } from '@app/events';
import type { BookFeed } from '@app/live-feed';
import { logSink, type EventLog, type RecordSink } from '@app/event-log';
import type { ApiServer } from '../../../apps/api/src/bootstrap';
import { PinnedClock, type Clock } from '../../../apps/api/src/clock';
import { closeHost, openFeed, waitCaughtUp, type ApiHost } from '../../../apps/api/src/compose';
import { startApiServer } from '../../../apps/api/src/bootstrap';
import { T0 } from '../../support/records';
import { world } from './world';

export interface TestServer {
  readonly server: ApiServer;
  /** The embedded log's directory (the quote journal is in it too). */
  readonly dataDir: string;
  readonly url: string;
  readonly wsUrl: string;
  /** The embedded log the API folds (a writer such as the ingestor can append to it directly). */
  readonly log: EventLog;
  /** The book feed folding it (a second API started on it is another replica over the same log). */
  readonly feed: BookFeed;
  /** Resolve once the API's feed has folded everything appended to the log so far. */
  caughtUp(): Promise<void>;
  /** Append records to the embedded log and wait until the API's feed has folded them. */
  write(records: readonly EventRecord[]): Promise<void>;
  close(): Promise<void>;
}

const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };

export const BASE_CONFIG: ServerConfig = {
  // The limits, budgets and journal queue the service starts with (libs/config's table).
  ...SERVER_DEFAULTS,
  port: 0,
  host: '::',
  rateLimitRps: 1_000_000,
  streamMaxPerIp: 10,
  heartbeatMs: 15_000,
  trustedProxies: [],
  routing: { staleBookMs: 10_000, stalenessPenaltyBps: 1, defaultTakerFeeRate: 0.001 },
  journalStrict: false,
  journalResponses: false,
};

/**
 * The API in this process on a real dual-stack socket, folding a real embedded log in a temp
 * DATA_DIR that starts with `records` (the fixture world by default); the clock is pinned at T0.
 */
export async function startTestServer(
  overrides: Partial<ServerConfig> = {},
  records: readonly EventRecord[] = world(),
  clock: Clock = new PinnedClock(T0),
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-e2e-'));
  const host: ApiHost = await openFeed({ kafkaBrokers: null, dataDir }, QUIET);
  const sink: RecordSink = logSink(host.log);
  const write = async (batch: readonly EventRecord[]): Promise<void> => {
    await sink.write(batch);
    await waitCaughtUp(host);
  };
  await write(records);
  host.server = await startApiServer({
    config: { ...BASE_CONFIG, ...overrides },
    feed: host.feed,
    log: host.log,
    clock,
    logger: false,
  });
  const server = host.server;
  return {
    server,
    dataDir,
    url: server.url,
    wsUrl: server.url.replace('http', 'ws'),
    log: host.log,
    feed: host.feed,
    caughtUp: () => waitCaughtUp(host),
    write,
    close: async () => {
      await closeHost(host);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
