import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '@app/config';
import { logSink, type AppendEntry, type EventLog } from '@app/event-log';
import type { TopicName } from '@app/events';
import { startApiServer } from '../../../apps/api/src/bootstrap';
import { PinnedClock } from '../../../apps/api/src/clock';
import { closeHost, openFeed, waitCaughtUp } from '../../../apps/api/src/compose';
import { T0 } from '../../support/records';
import { BASE_CONFIG } from './server';
import { world } from './world';

/** A service whose event log refuses every append to `topics` ("disk full"); the rest is written. */
export interface JournalDown {
  readonly url: string;
  close(): Promise<void>;
}

/** The API over the test world, the clock pinned at T0, `config` over BASE_CONFIG, its journal's topics down. */
export async function startWithJournalDown(
  config: Partial<ServerConfig>,
  topics: readonly TopicName[],
): Promise<JournalDown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'journal-down-'));
  const host = await openFeed(
    { kafkaBrokers: null, dataDir },
    { log: () => {}, warn: () => {}, error: () => {} },
  );
  await logSink(host.log).write(world());
  await waitCaughtUp(host);
  const inner = host.log;
  const down: EventLog = Object.assign(Object.create(inner) as EventLog, {
    append: (topic: TopicName, entries: readonly AppendEntry[]) =>
      topics.includes(topic) ? Promise.reject(new Error('disk full')) : inner.append(topic, entries),
  });
  host.server = await startApiServer({
    config: { ...BASE_CONFIG, ...config },
    feed: host.feed,
    log: down,
    clock: new PinnedClock(T0),
    logger: false,
  });
  return {
    url: host.server.url,
    close: async () => {
      await closeHost(host);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
