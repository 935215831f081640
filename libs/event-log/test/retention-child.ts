// Child process for retention.int.spec.ts: appends books entries forever, running a retention pass
// after every batch (time is the entry counter, one entry per ms), and prints the count of entries
// appended so far. Entry i of key k carries {"k":k,"n":<per-key counter>,"receivedAt":<ms>}; every
// 8th entry of a key is a snapshot. The parent SIGKILLs it at a random moment.
import { EmbeddedLog } from '../src/embedded/embedded-log';

const [dataDir] = process.argv.slice(2);
const log = new EmbeddedLog({
  dataDir: dataDir!,
  partitions: { books: 2 },
  fsync: 'never',
  segmentBytes: 8192,
  indexIntervalBytes: 512,
  retention: { policy: { maxAgeMs: 2_000, maxBytes: 64 * 1024 }, checkEveryMs: 3_600_000 },
});
const counters = new Map<string, number>();
let written = 0;

async function main(): Promise<void> {
  for (;;) {
    const entries = Array.from({ length: 40 }, (_, i) => {
      const key = `key${(written + i) % 13}`;
      const n = counters.get(key) ?? 0;
      counters.set(key, n + 1);
      const value = JSON.stringify({
        k: key,
        n,
        receivedAt: 1_800_000_000_000 + written + i,
        pad: 'x'.repeat(60),
      });
      return { key, value, snapshot: n % 8 === 0 };
    });
    await log.append('books', entries);
    written += entries.length;
    log.applyRetention(1_800_000_000_000 + written);
    process.stdout.write(`${written}\n`);
  }
}
void main();
