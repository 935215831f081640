import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EventRecord } from '@app/events';

/** Write records as events.md JSON Lines (one record per line), buffered; returns lines and bytes written. */
export function writeJsonl(path: string, records: Iterable<EventRecord>): { records: number; bytes: number } {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'w');
  let buf: string[] = [];
  let pending = 0;
  let count = 0;
  let bytes = 0;
  const flush = (): void => {
    if (buf.length === 0) return;
    const chunk = Buffer.from(buf.join(''), 'utf8');
    writeSync(fd, chunk);
    bytes += chunk.length;
    buf = [];
    pending = 0;
  };
  try {
    for (const r of records) {
      const line = `${JSON.stringify(r)}\n`;
      buf.push(line);
      pending += line.length;
      count++;
      if (pending >= 1 << 20) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return { records: count, bytes };
}
