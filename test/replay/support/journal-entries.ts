import { SERVER_DEFAULTS } from '@app/config';
import { JOURNAL_TOPICS } from '@app/events';
import type { JournalEntryRecord } from '@app/journal';
import { parseJournalEntryLine } from '@app/audit';
import { QuoteJournal } from '@app/audit';
import type { LogBookFeed } from '@app/live-feed';
import type { EventLog } from '@app/event-log';
import { solve, type RouteRequest, type RoutingConfig } from '@app/routing';

/** Every entry of the journal topics (quotes, then stream), parsed (a record that does not validate fails the test). */
export async function journalEntries(log: EventLog): Promise<JournalEntryRecord[]> {
  const out: JournalEntryRecord[] = [];
  for (const topic of JOURNAL_TOPICS) {
    const hwm = await log.highWatermarks(topic);
    for (let p = 0; p < hwm.length; p++) {
      for (const e of await log.read(topic, p, 0)) {
        const parsed = parseJournalEntryLine(e.value);
        if (!parsed.ok) throw parsed.error;
        out.push(parsed.record);
      }
    }
  }
  return out;
}

/**
 * Solve each request on the feed's books at `now` and journal it as GET /route would (strict, so
 * every record is on disk when this returns): the journal the replay commands are tested on.
 */
export async function journalSolved(
  log: EventLog,
  feed: LogBookFeed,
  requests: readonly RouteRequest[],
  now: number,
  routing: RoutingConfig,
): Promise<void> {
  const journal = new QuoteJournal({
    log,
    routing,
    mode: 'strict',
    maxQueuedBytes: SERVER_DEFAULTS.journalQueueBytes,
  });
  for (const request of requests) {
    const result = solve({ request, books: feed.cache, now, config: routing });
    await journal.record({
      kind: 'rest',
      request,
      calculatedAt: result.calculatedAt,
      positions: feed.positions(),
      status: 200,
      body: JSON.stringify(result),
    });
  }
  await journal.close();
}
