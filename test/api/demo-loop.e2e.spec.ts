import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BookCache, type BookSideView } from '@app/books';
import { LOOP_GAP_MS, RecordingReader, replayFiles, scanRecording } from '@app/recordings';
import { tempDir, waitFor } from '@test/support';
import { afterAll, describe, expect, it } from 'vitest';
import { call, openStream, type Stream } from './support/http';
import { startService, type LogLine, type ServiceProcess } from './support/service-process';

// `npm run demo` never stops: the 120 s recording loops, time-shifted and re-sequenced, so books
// stay fresh, the stream keeps moving and asOf works on a later pass; the demo keeps its own
// data directory. Time is compressed with --speed (one pass in about 3 s).
const ROOT = resolve(__dirname, '../..');
const RECORDING = join(ROOT, 'replay-data');
/**
 * The flags `npm run demo` gives `npm start` (package.json), with the recording's absolute path
 * and --speed 40 for its --speed 1: the test runs what the script runs.
 */
function demoArgs(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { demo: string } };
  const args = /^npm start -- (.+)$/.exec(pkg.scripts.demo)![1]!.split(' ');
  return args.map((a, i) =>
    a === 'replay-data/' ? RECORDING : args[i - 1] === '--speed' ? String(SPEED) : a,
  );
}
const REPLAY_MAIN = join(ROOT, 'dist/apps/replay/src/main.js');
const SPEED = 40;
const scan = scanRecording(replayFiles(RECORDING));
const PERIOD = scan.lastAt - scan.firstAt + LOOP_GAP_MS;
interface Level {
  readonly price: number;
  readonly amount: number;
}
const pass = (n: number) => (l: LogLine) => l.component === 'Replay' && l.pass === n;

/** The recording's sim00 BTC/USDT book folded up to the recorded instant `at`. */
function recordedBook(at: number): { bids: number[][]; asks: number[][]; sequence: number } {
  const cache = new BookCache();
  const reader = new RecordingReader(replayFiles(RECORDING), () => undefined);
  try {
    for (let chunk = reader.take(4096); chunk.length > 0; chunk = reader.take(4096))
      for (const r of chunk) if (r.receivedAt <= at) cache.apply(r);
  } finally {
    reader.close();
  }
  const book = cache.book('sim00', 'BTC/USDT')!;
  const levels = (side: BookSideView): number[][] =>
    Array.from({ length: side.count }, (_, i) => [side.price(i), side.amount(i)]);
  return { bids: levels(book.bids), asks: levels(book.asks), sequence: book.sequence };
}

describe('the demo loops its recording for as long as it runs', () => {
  const cwd = tempDir('demo-loop');
  let svc: ServiceProcess;
  let stream: Stream;
  let lastServedAt = 0;
  afterAll(async () => {
    stream?.ws.close();
    await svc?.stop();
    cwd.remove();
  });

  const start = (): Promise<ServiceProcess> =>
    startService(
      [...demoArgs(), '--port', '0', '--host', '127.0.0.1'],
      { DATA_DIR: undefined, KAFKA_BROKERS: undefined, TOPIC_PREFIX: undefined, LOG_SUMMARY_MS: '1000' },
      cwd.path,
    );

  it('keeps fresh books and stream frames after the recording length has passed', async () => {
    svc = await start();
    stream = openStream(svc.url.replace('http', 'ws'), 'from=BTC&to=USDT&amountIn=1');
    await stream.next(10_000);
    // Pass 3 starts once two recording lengths (2 x 120 s of recorded time) have been played.
    const third = await svc.waitForLine('the third pass', pass(3), 25_000);
    expect(third.message).toMatch(/^replaying .*replay-data: pass 3, recorded /);
    const before = stream.frames.length;
    await waitFor('frames after the third pass began', () => stream.frames.length > before + 3, 10_000);
    const newest = stream.frames[stream.frames.length - 1];
    expect(newest.calculatedAt).toBeGreaterThan(scan.firstAt + 2 * PERIOD);
    expect(newest.unroutableReason).toBeNull();
    expect((await call(svc.url, '/health')).body.status).toBe('ok');
    const quote = await call(svc.url, '/route?from=BTC&to=USDT&amountIn=1&strategy=split_optimal');
    expect(quote.status).toBe(200);
    expect(quote.body.unroutableReason).toBeNull();
    expect(quote.body.calculatedAt).toBeGreaterThan(scan.firstAt + 2 * PERIOD);
    // Its own data directory: ./.data-replay, never the live ./.data.
    expect(existsSync(join(cwd.path, '.data-replay'))).toBe(true);
    expect(existsSync(join(cwd.path, '.data'))).toBe(false);
  }, 60_000);

  it('asOf on the second pass gives the recording’s book at that instant, time-shifted and re-sequenced', async () => {
    const at = scan.firstAt + PERIOD + 45_000;
    const r = await call(svc.url, `/orderbook/sim00/BTC%2FUSDT?asOf=${at}`);
    expect(r.status).toBe(200);
    const recorded = recordedBook(at - PERIOD);
    const served = r.body as { bids: Level[]; asks: Level[] };
    const levels = (side: Level[]): number[][] => side.map((l) => [l.price, l.amount]);
    expect(levels(served.bids)).toEqual(recorded.bids);
    expect(levels(served.asks)).toEqual(recorded.asks);
    expect(r.body.sequence).toBe(recorded.sequence + scan.maxSequence + 1);
    expect(r.body.receivedAt).toBeLessThanOrEqual(at);
    expect(r.body.receivedAt).toBeGreaterThan(scan.firstAt + PERIOD);
    // A quote at that instant is journalled and replays to the same bytes.
    const quote = await fetch(`${svc.url}/route?from=BTC&to=USDT&amountIn=1&asOf=${at}`, {
      headers: { 'x-request-id': 'demo-pass-2' },
    });
    const body = await quote.text();
    expect(quote.status).toBe(200);
    expect(JSON.parse(body).calculatedAt).toBe(at);
    await waitFor('the journal record', () => {
      const q = spawnSync(
        process.execPath,
        [REPLAY_MAIN, 'quote', 'demo-pass-2', '--data-dir', join(cwd.path, '.data-replay')],
        {
          encoding: 'utf8',
          env: { ...process.env, KAFKA_BROKERS: undefined, DATA_DIR: undefined },
        },
      );
      if (q.status === 3) return false;
      expect(q.stderr).toMatch(/^identical: sha256 /);
      expect(q.stdout).toBe(`${body}\n`);
      return true;
    });
    // Generous: each `replay quote` child reads the demo's log (a few passes of 28,787 records) to
    // rebuild the asOf books, which takes seconds on a loaded 2-core machine.
  }, 60_000);

  it('a restarted demo continues after the newest record of its log; earlier instants still answer', async () => {
    const lines = svc.lines().filter((l) => l.component === 'Replay');
    lastServedAt = Math.max(...lines.map((l) => l.servedAt as number));
    expect(await svc.stop()).toBe(0);
    svc = await start();
    const first = await svc.waitForLine('the first pass of the restarted demo', pass(1));
    expect(first.servedAt as number).toBeGreaterThan(lastServedAt);
    await waitFor(
      'fresh books again',
      async () => (await call(svc.url, '/health')).body.status === 'ok',
      15_000,
    );
    const earlier = await call(svc.url, `/orderbook/sim00/BTC%2FUSDT?asOf=${scan.firstAt + PERIOD + 45_000}`);
    expect(earlier.status).toBe(200);
  }, 60_000);
});
