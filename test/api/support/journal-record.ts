import { EmbeddedLog } from '@app/event-log';
import { JOURNAL_TOPICS } from '@app/events';

/** The text of the journal record keyed `requestId` in a service's data directory, read while it runs. */
export async function recordText(dataDir: string, requestId: string): Promise<string> {
  const reader = new EmbeddedLog({ dataDir, readOnly: true });
  try {
    for (const topic of JOURNAL_TOPICS) {
      const hwm = await reader.highWatermarks(topic);
      for (let p = 0; p < hwm.length; p++)
        for (const e of await reader.read(topic, p, 0)) if (e.key === requestId) return e.value;
    }
    throw new Error(`no journal record ${requestId}`);
  } finally {
    await reader.close();
  }
}
