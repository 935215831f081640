import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalIndexDir } from '@app/audit';
import { JOURNAL_TOPICS } from '@app/events';
import { EmbeddedLog, logSink, partitionFor } from '@app/event-log';
import { startApiServer } from '../../apps/api/src/bootstrap';
import { PinnedClock } from '../../apps/api/src/clock';
import { closeHost, openFeed, waitCaughtUp, type ApiHost } from '../../apps/api/src/compose';
import { BASE_CONFIG } from '../api/support/server';
import { world } from '../api/support/world';
import { runReplayCli } from '../replay/support/run-replay';
import { book, T0 } from '../support/records';
import { exchange, get } from './support/raw';

// Issue 22: every stream frame was journalled to the quotes topic, so a stream flood pushed REST
// quotes out by size retention (5,000 streams wrote 6.5 MB/s; quotes answered 6 minutes earlier
// were gone, and `replay quote` said only "no journal record"). Now the stream journals to a
// topic of its own: REST quotes keep their horizon whatever the streams do, and a record past
// the horizon is reported as such, naming it. Compressed: 512 KiB per partition (segments of
// 128 KiB), and the retention pass the service runs every minute is run once, after the flood.
const RETENTION = { maxAgeMs: null, maxBytes: 512 * 1024, segmentBytes: 128 * 1024 };
const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };
const ADDRESSES = 60;
const PER_ADDRESS = 10;

let dataDir: string;
let host: ApiHost;
let port: number;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'journal-flood-'));
  host = await openFeed({ kafkaBrokers: null, dataDir, retention: RETENTION }, QUIET);
  await logSink(host.log).write(world());
  await waitCaughtUp(host);
  host.server = await startApiServer({
    config: { ...BASE_CONFIG, streamBudget: { framesPerSec: 50_000, bytesPerSec: 1e9 } },
    feed: host.feed,
    log: host.log,
    clock: new PinnedClock(T0),
    logger: false,
    journalIndexDir: journalIndexDir(dataDir),
  });
  port = host.server.port;
});
afterAll(async () => {
  await closeHost(host);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Open a stream; resolves with the socket once the opening frame came, and that frame's requestId. */
function open(q: string, localAddress: string): Promise<{ ws: WebSocket; firstId: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream/route?${q}`, { localAddress });
    ws.once('message', (d: Buffer) =>
      resolve({ ws, firstId: (JSON.parse(d.toString()) as { requestId: string }).requestId }),
    );
    ws.on('error', reject);
  });
}

describe('a stream flood after REST quotes, with a small LOG_RETENTION_BYTES (issue 22)', () => {
  it('every REST quote still replays; a frame past the stream journal horizon is reported naming it', async () => {
    // REST quotes first, from a well-behaved client.
    const restIds: string[] = [];
    for (let i = 0; i < 40; i++) {
      const id = `rest-${i}`;
      const a = await exchange(
        port,
        get(`/route?from=USDT&to=BTC&amountIn=${10 + i}&bridges=`, [`X-Request-Id: ${id}`]),
        {
          localAddress: '127.0.0.2',
        },
      );
      expect(a.status).toBe(200);
      restIds.push(id);
    }
    // Then the flood: 600 streams over 60 addresses, the books moving every 20 ms.
    const streams: { ws: WebSocket; firstId: string }[] = [];
    for (let a = 0; a < ADDRESSES; a++)
      streams.push(
        ...(await Promise.all(
          Array.from({ length: PER_ADDRESS }, (_, i) =>
            open(
              `from=USDT&to=BTC&amountIn=${1 + ((a * PER_ADDRESS + i) % 50)}&bridges=`,
              `127.0.8.${1 + a}`,
            ),
          ),
        )),
      );
    const sink = logSink(host.log);
    // Journal records written so far, both topics (before issue 22 every frame went to quotes).
    const entries = async (): Promise<number> => {
      let n = 0;
      for (const topic of JOURNAL_TOPICS) for (const h of await host.log.highWatermarks(topic)) n += h;
      return n;
    };
    // Until the four stream partitions hold well over their bound: about 4,000 records each, at
    // about 230 bytes a frame record, against 512 KiB.
    for (let seq = 2; (await entries()) < 16_000; seq++) {
      await sink.write([book('alpha', 'BTC/USDT', [[99, 1]], [[100 + (seq % 9) / 10, 1]], seq)]);
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const s of streams) s.ws.terminate();
    await host.server!.journal.flush();

    const results = (host.log as EmbeddedLog).applyRetention(Date.now());
    // Every REST quote answered before the flood replays byte for byte.
    const rest = await runReplayCli(['quote', ...restIds, '--data-dir', dataDir]);
    expect(rest.err.filter((l) => l.startsWith('identical: '))).toHaveLength(restIds.length);
    expect(rest.code).toBe(0);

    // Retention cut the stream journal, never the REST one.
    const cut = (topic: string): number[] => results.filter((r) => r.topic === topic).map((r) => r.partition);
    expect(cut('stream').length).toBeGreaterThan(0);
    expect(cut('quotes')).toEqual([]);

    // An opening frame of the flood, in a partition retention cut: past the horizon, said so.
    const reader = new EmbeddedLog({ dataDir, readOnly: true });
    const retained = await reader.retainedFrom('stream');
    await reader.close();
    const gone = streams.find((s) => (retained[partitionFor(s.firstId, retained.length)] ?? 0) > 0)!;
    const past = await runReplayCli(['quote', gone.firstId, '--data-dir', dataDir]);
    expect(past.code).toBe(3);
    expect(past.err.join('\n')).toMatch(
      new RegExp(
        `^no journal record for requestId "${gone.firstId}" within the journal's retention horizon: .*stream/${partitionFor(gone.firstId, retained.length)} from offset \\d+, calculatedAt \\d+ \\(.*Z\\)`,
        'm',
      ),
    );
  }, 120_000);
});
