/**
 * Longevity benchmark (issue 10), journal lookups: `replay quote <id>` with 10k, 100k and 1M
 * journal records. A real API over the embedded log journals 40 quotes under known requestIds;
 * filler entries (copies of one real record's bytes under fresh ids) then grow the journal, the
 * API's requestId indexer catches up, and the real CLI is spawned as a user types it
 * (`node scripts/run.mjs dist/apps/replay/src/main.js quote <id>`, DATA_DIR set), timed from
 * spawn to exit; the lookup alone (findQuotes with the index, in process) and the old backward
 * scan (findQuotes without it) are timed too. The ids asked for are the oldest in the journal:
 * the scan's worst case.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findQuotes, JournalIndex, journalIndexDir } from '@app/audit';
import { quantile } from './bench-row';
import { startLongevityHost } from './longevity-host';
import { prng } from './market-gen';
import { spawnHeld } from './processes';

const ROOT = resolve(__dirname, '..', '..');
const SIZES = [10_000, 100_000, 1_000_000];
const CLI_RUNS = 5;
type Row = (metric: string, value: number, unit: string) => void;

/** Wall ms from spawn to exit of the replay CLI; throws unless it exits 0 (identical replay). */
function cliQuote(id: string, dataDir: string): Promise<number> {
  const t0 = performance.now();
  const child = spawnHeld(
    'replay quote',
    process.execPath,
    ['scripts/run.mjs', 'dist/apps/replay/src/main.js', 'quote', id],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((res, rej) =>
    child.once('exit', (code) =>
      code === 0 ? res(performance.now() - t0) : rej(new Error(`replay quote ${id} exited ${code}: ${err}`)),
    ),
  );
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true }))
    n += e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

export async function benchJournalLookups(row: Row): Promise<void> {
  const host = await startLongevityHost({ journalResponses: false, venues: 20, levels: 200 });
  const { server, dataDir, now } = host;
  try {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const id = `bench-lookup-${i}-${now.toString(36)}`;
      const res = await fetch(`${server.url}/route?from=USDT&to=BTC&amountIn=${1000 + i * 100}`, {
        headers: { 'x-request-id': id },
      });
      if (res.status !== 200) throw new Error(`quote ${id}: HTTP ${res.status}`);
      await res.arrayBuffer();
      ids.push(id);
    }
    await server.journal.flush();
    const [template] = await host.log.read(
      'quotes',
      (await host.log.highWatermarks('quotes')).findIndex((h) => h > 0),
      0,
      1,
    );
    const rand = prng(3);
    let total = ids.length;
    const index = new JournalIndex(host.log, journalIndexDir(dataDir));
    for (const size of SIZES) {
      while (total < size) {
        const n = Math.min(5000, size - total);
        const batch = Array.from({ length: n }, (_, k) => ({
          key: `fill-${(total + k).toString(36)}-${Math.floor(rand() * 1e9).toString(36)}`,
          value: template!.value,
        }));
        await host.log.append('quotes', batch);
        total += n;
      }
      const t0 = performance.now();
      await server.indexJournal();
      row(`journal ${size}: index catch-up after growing the journal`, performance.now() - t0, 'ms');
      const lookups: number[] = [];
      for (const id of ids) {
        const t = performance.now();
        const found = await findQuotes(host.log, id, index);
        lookups.push(performance.now() - t);
        if (found.length !== 1) throw new Error(`${id}: ${found.length} records through the index`);
      }
      row(`journal ${size}: findQuotes via index p50`, quantile(lookups, 0.5), 'ms');
      row(`journal ${size}: findQuotes via index max`, Math.max(...lookups), 'ms');
      if (size <= 100_000) {
        const t = performance.now();
        await findQuotes(host.log, ids[0]!);
        row(`journal ${size}: findQuotes by scanning (no index)`, performance.now() - t, 'ms');
      }
      const cli: number[] = [];
      for (let i = 0; i <= CLI_RUNS; i++) {
        const ms = await cliQuote(ids[i]!, dataDir);
        if (i > 0) cli.push(ms); // the first run warms the page cache
      }
      row(`journal ${size}: replay quote CLI (spawn to exit) median`, quantile(cli, 0.5), 'ms');
      row(`journal ${size}: replay quote CLI max`, Math.max(...cli), 'ms');
    }
    row('journal 1M: requestId index bytes/record', dirBytes(journalIndexDir(dataDir)) / total, 'B');
  } finally {
    await host.close();
  }
}
