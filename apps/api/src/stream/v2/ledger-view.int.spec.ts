import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_LEDGER, type TopicName } from '@app/events';
import { EmbeddedLog } from '@app/event-log';
import { encodeStreamClose, encodeStreamOpen } from '@app/journal';
import { parseRouteQuery, type RouteParams } from '@app/request';
import { tempDir } from '@test/support';
import { LedgerView } from './ledger-view';

const WINDOW = 120_000;
const T = 1_786_300_000_000;
const parsed = parseRouteQuery('from=USDT&to=BTC&amountIn=100', 'stream');
if (!parsed.ok) throw new Error(parsed.error);
const request: RouteParams = parsed.params;
const KEY = JSON.stringify(request);

/** A real embedded log that counts the reads the view makes of it. */
class CountedLog extends EmbeddedLog {
  watermarkCalls = 0;
  recordsRead = 0;
  override async read(topic: TopicName, partition: number, from: number, max?: number) {
    const entries = await super.read(topic, partition, from, max);
    this.recordsRead += entries.length;
    return entries;
  }
  override highWatermarks(topic: TopicName): Promise<number[]> {
    this.watermarkCalls++;
    return super.highWatermarks(topic);
  }
}

let log: CountedLog;
let dir: ReturnType<typeof tempDir>;
function openLog(partitions: number): CountedLog {
  dir = tempDir('ledger-view');
  return (log = new CountedLog({ dataDir: dir.path, partitions: { [STREAM_LEDGER]: partitions } }));
}
afterEach(async () => {
  await log.close();
  dir.remove();
});

function opened(streamId: string) {
  return {
    key: streamId,
    value: encodeStreamOpen({
      streamId,
      id: 's',
      at: T,
      path: 'stream',
      request,
      resume: null,
      verdict: null,
    }),
  };
}
function closed(streamId: string, lastSeq: number, at = T + 1000) {
  return {
    key: streamId,
    value: encodeStreamClose({ streamId, id: 's', at, lastSeq, reason: 'closed', request }),
  };
}

describe('the stream ledger as a process reads it', () => {
  it('sees every record appended before the lookup, a stream open elsewhere as open, one never seen as unknown', async () => {
    openLog(2);
    const view = new LedgerView(log, WINDOW, 1000);
    const [a, b] = [randomUUID(), randomUUID()];
    const now = () => T + 2000;
    expect(await view.verdict({ streamId: a, seq: 1 }, KEY, now)).toEqual({
      resumed: false,
      reason: 'unknown_stream',
    });
    await log.append(STREAM_LEDGER, [opened(a), opened(b)]);
    expect(await view.verdict({ streamId: a, seq: 1 }, KEY, now)).toEqual({
      resumed: false,
      reason: 'still_open',
    });
    await log.append(STREAM_LEDGER, [closed(a, 5)]);
    expect(await view.verdict({ streamId: a, seq: 2 }, KEY, now)).toEqual({ resumed: true, missedFrames: 3 });
    expect(await view.verdict({ streamId: a, seq: 6 }, KEY, now)).toEqual({
      resumed: false,
      reason: 'seq_ahead',
    });
    expect(await view.verdict({ streamId: a, seq: 2 }, '{}', now)).toEqual({
      resumed: false,
      reason: 'request_mismatch',
    });
    expect(await view.verdict({ streamId: a, seq: 2 }, KEY, () => T + 1000 + WINDOW + 1)).toEqual({
      resumed: false,
      reason: 'expired',
    });
    expect(await view.verdict({ streamId: b, seq: 1 }, KEY, now)).toEqual({
      resumed: false,
      reason: 'still_open',
    });
  });

  it('a burst of lookups shares its reads: one runs and one waits, whatever their number', async () => {
    openLog(2);
    const view = new LedgerView(log, WINDOW, 1000);
    const a = randomUUID();
    await log.append(STREAM_LEDGER, [opened(a), closed(a, 2)]);
    const verdicts = await Promise.all(
      Array.from({ length: 500 }, () =>
        view.verdict({ streamId: randomUUID(), seq: 1 }, KEY, () => T + 2000),
      ),
    );
    expect(new Set(verdicts.map((v) => JSON.stringify(v)))).toEqual(
      new Set(['{"resumed":false,"reason":"unknown_stream"}']),
    );
    expect(log.watermarkCalls).toBeLessThanOrEqual(2);
    expect(await view.verdict({ streamId: a, seq: 1 }, KEY, () => T + 2000)).toEqual({
      resumed: true,
      missedFrames: 1,
    });
  });

  it('starts from the newest records of each partition: a close older than those is unknown', async () => {
    openLog(1);
    const old = randomUUID();
    await log.append(STREAM_LEDGER, [opened(old), closed(old, 1)]);
    const filler = Array.from({ length: 50 }, () => randomUUID());
    await log.append(
      STREAM_LEDGER,
      filler.map((id) => closed(id, 1)),
    );
    const view = new LedgerView(log, WINDOW, 50);
    expect(await view.verdict({ streamId: old, seq: 1 }, KEY, () => T + 2000)).toEqual({
      resumed: false,
      reason: 'unknown_stream',
    });
    expect(await view.verdict({ streamId: filler[0]!, seq: 1 }, KEY, () => T + 2000)).toEqual({
      resumed: true,
      missedFrames: 0,
    });
  });

  it('warm reads the ledger ahead: the first resume after it reads no record', async () => {
    openLog(2);
    const ids = Array.from({ length: 40 }, () => randomUUID());
    await log.append(
      STREAM_LEDGER,
      ids.flatMap((id) => [opened(id), closed(id, 3)]),
    );
    const view = new LedgerView(log, WINDOW, 1000);
    await view.warm();
    expect(log.recordsRead).toBe(80);
    expect(await view.verdict({ streamId: ids[7]!, seq: 1 }, KEY, () => T + 2000)).toEqual({
      resumed: true,
      missedFrames: 2,
    });
    expect(log.recordsRead).toBe(80);
  });
});
