import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRecordLine, type EventRecord } from '@app/events';
import { EmbeddedLog, logSink } from '@app/event-log';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordingReader, replayFiles } from '@app/recordings';
import { generateMarket } from '@app/synth';
import { runReplayCli } from './support/run-replay';

describe('replay record --out DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'record-log-'));
  const out = mkdtempSync(join(tmpdir(), 'record-out-'));
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('copies every book, market and venue record to JSON Lines that --replay reads back', async () => {
    const records: EventRecord[] = [
      ...generateMarket({ seed: 11, startAt: 1_786_300_000_000, durationMs: 20_000, venues: 12 }),
    ];
    const log = new EmbeddedLog({ dataDir, fsync: 'never' });
    await logSink(log).write(records);
    await log.append('books', [{ key: 'sim00|BTC/USDT', value: '{"v":1,"type":"book"}' }]);
    await log.close();
    const { code, err: lines } = await runReplayCli(['record', '--out', out, '--data-dir', dataDir], {
      cwd: '/',
    });
    expect(code).toBe(0);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^recorded ${records.length} records into 12 files .*; 1 invalid entries left out$`),
    );
    expect(readdirSync(out).sort()).toEqual([
      ...Array.from({ length: 8 }, (_, p) => `books-0${p}.jsonl`),
      ...Array.from({ length: 4 }, (_, p) => `venues-0${p}.jsonl`),
    ]);
    // Byte-for-byte copies of the log entries, in offset order per file.
    const copied = readdirSync(out).flatMap((f) =>
      readFileSync(join(out, f), 'utf8')
        .trimEnd()
        .split('\n')
        .filter((l) => l !== ''),
    );
    expect(copied.every((l) => parseRecordLine(l).ok)).toBe(true);
    expect(new Set(copied)).toEqual(new Set(records.map((r) => JSON.stringify(r))));
    // The API's --replay reader takes the directory as it is, every record and nothing skipped.
    const skipped: unknown[] = [];
    let n = 0;
    const reader = new RecordingReader(replayFiles(out), (s) => skipped.push(s));
    for (let chunk = reader.take(1000); chunk.length > 0; chunk = reader.take(1000))
      for (const r of chunk) if (r.v === 1) n++;
    expect(skipped).toEqual([]);
    expect(n).toBe(records.length);
  });
});
