import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bookHash, type BookCache, type BookSideView, type BookView } from '@app/books';
import type { EventRecord } from '@app/events';
import { logSink, openEventLog } from '@app/event-log';
import { bookRecords, listingRecords, type StreamSpec } from '@app/synth';
import { foldRecords } from '../kafka/book-hashes';
import { testBrokers } from '../kafka/broker';
import { call } from './support/http';

// Issue 4: the built API process killed with SIGKILL and started again on the same log rebuilds
// (from the snapshots in the log) exactly the books it served before the kill.
const ROOT = resolve(__dirname, '../..');
const MAIN = join(ROOT, 'dist/apps/api/src/main.js');
const SPEC: StreamSpec = {
  venues: 4,
  symbolsPerVenue: 5,
  bookRecords: 4000,
  levels: 10,
  snapshotEvery: 100,
  startAt: 1_786_000_000_000,
};
const NOW = SPEC.startAt + 60_000;
const children: ChildProcess[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'api-sigkill-'));
  dirs.push(d);
  return d;
}

/** The test's environment minus the log settings, so each case chooses its own log. */
function inherited(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['KAFKA_BROKERS', 'DATA_DIR', 'TOPIC_PREFIX']) delete env[k];
  return env;
}

interface Api {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Start the built API on `env`'s log; resolves once it prints the port it listens on. */
function startApi(env: Record<string, string>): Promise<Api> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, [MAIN, '--port', '0', '--host', '127.0.0.1', '--now', String(NOW)], {
    cwd: ROOT,
    env: { ...inherited(), RATE_LIMIT_RPS: '1000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return new Promise((resolveApi, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /"message":"listening","port":(\d+)/.exec(out);
      if (m !== null) resolveApi({ child, url: `http://127.0.0.1:${m[1]}`, exited });
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    void exited.then(({ code, signal }) => reject(new Error(`api exited (${code ?? signal}): ${err}`)));
  });
}

async function waitHealthy(url: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const r = await call(url, '/health');
    // Caught up with the log: anything but `starting` (these books are older than STALE_BOOK_MS at --now).
    if (r.status === 200 && r.body.status !== 'starting') return;
    if (Date.now() > deadline) throw new Error(`/health never left starting: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Every book as the API serves it, by `exchangeId|symbol`, as the raw response text. */
async function readBooks(url: string, keys: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const [exchange, symbol] = key.split('|') as [string, string];
    const res = await fetch(`${url}/orderbook/${exchange}/${encodeURIComponent(symbol)}`);
    expect(res.status, key).toBe(200);
    out[key] = await res.text();
  }
  return out;
}

/** GET /orderbook's body (spec 2.7). */
interface ServedBook {
  readonly exchangeId: string;
  readonly symbol: string;
  readonly bids: readonly { price: number; amount: number }[];
  readonly asks: readonly { price: number; amount: number }[];
  readonly exchangeTimestamp: number | null;
  readonly receivedAt: number;
  readonly sequence: number;
}

/** The API's book JSON seen as a BookView, so bookHash can compare it with the independent fold. */
function viewOf(body: ServedBook, inSync: boolean): BookView {
  const side = (levels: ServedBook['bids']): BookSideView => ({
    count: levels.length,
    price: (i) => levels[i]!.price,
    amount: (i) => levels[i]!.amount,
  });
  const crossed = body.bids.length > 0 && body.asks.length > 0 && body.bids[0]!.price >= body.asks[0]!.price;
  return { ...body, bids: side(body.bids), asks: side(body.asks), inSync, crossed };
}

/** Served books must hash like the fold's; every field the API shows must match it too. */
function expectSameAsFold(served: Record<string, string>, fold: BookCache): void {
  const keys = fold.allBooks().map((b) => `${b.exchangeId}|${b.symbol}`);
  expect(Object.keys(served).sort()).toEqual(keys.sort());
  for (const book of fold.allBooks()) {
    const body: ServedBook = JSON.parse(served[`${book.exchangeId}|${book.symbol}`]!) as ServedBook;
    expect(bookHash(viewOf(body, book.inSync))).toBe(bookHash(book));
    expect(body.exchangeTimestamp).toBe(book.exchangeTimestamp);
  }
}

async function waitForSequences(url: string, fold: BookCache): Promise<void> {
  // Generous: this checks what the books converge to, not how fast (the machine may be busy).
  const deadline = Date.now() + 60_000;
  for (const book of fold.allBooks()) {
    const path = `/orderbook/${book.exchangeId}/${encodeURIComponent(book.symbol)}`;
    for (;;) {
      const r = await call(url, path);
      if (r.status === 200 && r.body.sequence === book.sequence) break;
      if (Date.now() > deadline) throw new Error(`${path} stuck at ${JSON.stringify(r.body.sequence)}`);
      await new Promise((res) => setTimeout(res, 20));
    }
  }
}

/** Write, serve, append while serving, SIGKILL, restart: the served books never change. */
async function killAndRestart(env: Record<string, string>, kafkaBrokers: string | null): Promise<void> {
  const writer = openEventLog({
    kafkaBrokers,
    dataDir: env.DATA_DIR!,
    topicPrefix: env.TOPIC_PREFIX,
  });
  try {
    const sink = logSink(writer);
    const listings = listingRecords(SPEC);
    const books = [...bookRecords(SPEC)];
    const first = 2500;
    await sink.write([...listings, ...books.slice(0, first)]);
    const all: EventRecord[] = [...listings, ...books];
    const fold = foldRecords(all);
    const keys = fold.allBooks().map((b) => `${b.exchangeId}|${b.symbol}`);
    expect(keys).toHaveLength(SPEC.venues * SPEC.symbolsPerVenue);

    const api = await startApi(env);
    await waitHealthy(api.url);
    expectSameAsFold(await readBooks(api.url, keys), foldRecords([...listings, ...books.slice(0, first)]));

    // The rest arrives while the API follows the tail.
    for (let i = first; i < books.length; i += 250) await sink.write(books.slice(i, i + 250));
    await waitForSequences(api.url, fold);
    const beforeKill = await readBooks(api.url, keys);
    expectSameAsFold(beforeKill, fold);

    expect(api.child.kill('SIGKILL')).toBe(true);
    expect(await api.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const again = await startApi(env);
    await waitHealthy(again.url);
    const afterRestart = await readBooks(again.url, keys);
    // Byte for byte what the killed process served, and still the independent fold.
    expect(afterRestart).toEqual(beforeKill);
    expectSameAsFold(afterRestart, fold);
    again.child.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
  } finally {
    await writer.close();
  }
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('API killed with SIGKILL and restarted', () => {
  it('on the embedded log rebuilds the very books it served before the kill', async () => {
    await killAndRestart({ DATA_DIR: tempDir() }, null);
  }, 30_000);

  it('on Kafka rebuilds the very books it served before the kill', async () => {
    const brokers = await testBrokers();
    const env = {
      KAFKA_BROKERS: brokers,
      DATA_DIR: tempDir(),
      TOPIC_PREFIX: `t-${randomUUID().slice(0, 8)}`,
    };
    await killAndRestart(env, brokers);
  }, 30_000);
});
