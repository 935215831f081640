// Child process for embedded-log-processes.int.spec.ts: follows every partition of books from offset 0
// until it has seen `count` entries, then prints them as "partition offset value" lines.
import { EmbeddedLog } from '../src/embedded/embedded-log';

const [dataDir, countArg] = process.argv.slice(2);
const count = Number(countArg);
const log = new EmbeddedLog({ dataDir: dataDir! });

async function main(): Promise<void> {
  const n = await log.partitions('books');
  const ac = new AbortController();
  const lines: string[] = [];
  const from = Array.from({ length: n }, (_, partition) => ({
    topic: 'books' as const,
    partition,
    offset: 0,
  }));
  process.stdout.write('ready\n');
  for await (const batch of log.follow(from, { signal: ac.signal })) {
    for (const e of batch) lines.push(`${e.partition} ${e.offset} ${e.value}`);
    if (lines.length >= count) ac.abort();
  }
  process.stdout.write(`${lines.join('\n')}\nend\n`);
  await log.close();
}
void main();
