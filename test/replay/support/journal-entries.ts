import { parseJournalEntryLine, type JournalEntryRecord } from '@app/journal';
import type { EventLog } from '@app/log';

/** Every entry of the quotes topic, parsed (a record that does not validate fails the test). */
export async function journalEntries(log: EventLog): Promise<JournalEntryRecord[]> {
  const out: JournalEntryRecord[] = [];
  const hwm = await log.highWatermarks('quotes');
  for (let p = 0; p < hwm.length; p++) {
    for (const e of await log.read('quotes', p, 0)) {
      const parsed = parseJournalEntryLine(e.value);
      if (!parsed.ok) throw parsed.error;
      out.push(parsed.record);
    }
  }
  return out;
}
