// Child process for embedded-log-processes.int.spec.ts: appends `count` entries (0 = forever) to topic
// books of `dataDir`, `batch` at a time; entry i of key k carries {"k":k,"n":<per-key counter>}.
import { EmbeddedLog } from '../src/embedded/embedded-log';

const [dataDir, countArg, batchArg, pauseArg] = process.argv.slice(2);
const count = Number(countArg);
const batch = Number(batchArg);
const pause = Number(pauseArg ?? 0);
const log = new EmbeddedLog({ dataDir: dataDir!, partitions: { books: 3 }, fsync: 'never' });
const counters = new Map<string, number>();
let written = 0;

async function main(): Promise<void> {
  while (count === 0 || written < count) {
    const n = count === 0 ? batch : Math.min(batch, count - written);
    const entries = Array.from({ length: n }, (_, i) => {
      const key = `key${(written + i) % 11}`;
      const c = counters.get(key) ?? 0;
      counters.set(key, c + 1);
      return { key, value: JSON.stringify({ k: key, n: c, pad: 'x'.repeat(100) }) };
    });
    await log.append('books', entries);
    written += n;
    if (written % (batch * 20) === 0) process.stdout.write(`${written}\n`);
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
  }
  await log.close();
  process.stdout.write(`done ${written}\n`);
}
void main();
