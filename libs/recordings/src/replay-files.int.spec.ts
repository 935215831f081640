import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventRecord, VenueRecord } from '@app/events';
import { tempDir } from '@test/support';
import { RecordingReader } from './replay-files';

const MIB = 1 << 20;

function venueLine(i: number, lastError: string): VenueRecord {
  return {
    v: 1,
    type: 'venue',
    exchangeId: `venue${i}`,
    certified: true,
    connected: false,
    lastError,
    receivedAt: 1_786_000_000_000 + i,
  };
}

describe('recordings are decoded as one UTF-8 stream', () => {
  const dir = tempDir('replay-files');
  afterAll(() => dir.remove());

  it("a '€' whose three bytes straddle the 1 MiB read boundary is read back as '€', not U+FFFD", () => {
    // Filler lines up to just before the boundary, then a line whose '€' starts one byte before it.
    const lines: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes < MIB - 2000; i++) {
      const line = `${JSON.stringify(venueLine(i, 'filler'))}\n`;
      lines.push(line);
      bytes += Buffer.byteLength(line);
    }
    const probe = venueLine(lines.length, 'PAD');
    const head = JSON.stringify(probe).indexOf('PAD');
    const pad = 'x'.repeat(MIB - 1 - bytes - head);
    const errorText = `${pad}€ and after`;
    const target = venueLine(lines.length, errorText);
    const text = JSON.stringify(target);
    const at = bytes + Buffer.byteLength(text.slice(0, text.indexOf('€')));
    expect(at).toBe(MIB - 1); // the euro's bytes are MIB-1, MIB, MIB+1: split 1 | 2
    lines.push(`${text}\n`, `${JSON.stringify(venueLine(lines.length + 1, 'après €'))}\n`);
    const file = join(dir.path, 'euro.jsonl');
    writeFileSync(file, lines.join(''));

    const skipped: string[] = [];
    const reader = new RecordingReader([file], (s) => skipped.push(s.problem));
    const got: EventRecord[] = [];
    for (let chunk = reader.take(1000); chunk.length > 0; chunk = reader.take(1000)) got.push(...chunk);
    reader.close();
    expect(skipped).toEqual([]);
    expect(got).toHaveLength(lines.length);
    const read = got[got.length - 2] as VenueRecord;
    expect(read.lastError).toBe(errorText);
    expect(read.lastError).not.toContain('\uFFFD');
    expect((got[got.length - 1] as VenueRecord).lastError).toBe('après €');
  });
});
