import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedLog } from '@app/event-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHost, openFeed, type ApiHost } from '../../apps/api/src/compose';
import { findQuote, findQuotes, journalIndexDir, journalIndexes } from '@app/audit';
import { replayQuote, sha256Hex } from '@app/audit';
import { journalEntries } from './support/journal-entries';
import { scenarioRecords, serveScenario, type Served } from './support/journal-scenario';

const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };

// The API journals what it serves (REST, asOf, stream frames) on the embedded log; the replay code
// reproduces every requestId byte for byte.
describe('quote journal end to end on the embedded log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-e2e-'));
  let served: Map<string, Served>;
  let reader: EmbeddedLog;

  beforeAll(async () => {
    const host: ApiHost = await openFeed({ kafkaBrokers: null, dataDir: dir }, QUIET);
    try {
      ({ served } = await serveScenario(host, scenarioRecords(), 8));
    } finally {
      // Closing the server flushes the journal before the log closes.
      await closeHost(host);
    }
    reader = new EmbeddedLog({ dataDir: dir });
  }, 60_000);

  afterAll(async () => {
    await reader?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves several hundred results of every kind', () => {
    const all = [...served.values()];
    expect(all.length).toBeGreaterThan(300);
    const reasons = new Set(
      all.map(
        (s) => (JSON.parse(s.body) as { unroutableReason: string | null }).unroutableReason ?? 'routed',
      ),
    );
    for (const r of [
      'routed',
      'no_market',
      'exact_out_multi_hop_unsupported',
      'all_books_stale',
      'insufficient_balance',
      'no_venues_matched_filter',
    ])
      expect(reasons, r).toContain(r);
    expect(all.filter((s) => s.via === 'stream').length).toBeGreaterThan(40);
    expect(all.filter((s) => s.asOf !== null).length).toBeGreaterThan(40);
    expect(all.filter((s) => s.via === 'post').length).toBeGreaterThan(20);
  });

  it('journals each result once, with its status, hash and the asOf asked', async () => {
    const entries = await journalEntries(reader);
    const byId = new Map(entries.map((e) => [e.requestId, e]));
    for (const [requestId, s] of served) {
      const e = byId.get(requestId);
      expect(e, requestId).toBeDefined();
      if (s.via === 'stream') {
        expect(e!.type).toBe('quote_frame');
        continue;
      }
      if (e!.type !== 'quote') throw new Error(`${requestId} is not a quote record`);
      expect(e!.status).toBe(s.status);
      expect(e!.request.asOf ?? null).toBe(s.asOf);
      if (s.asOf !== null) expect(e!.calculatedAt).toBe(s.asOf);
      // The default journal proves the bytes (hash, length) without storing them.
      expect(e!.response).toBeNull();
      expect(e!.responseSha256).toBe(sha256Hex(s.body));
      expect(e!.responseBytes).toBe(Buffer.byteLength(s.body));
    }
    const frames = entries.filter((e) => e.type === 'quote_frame');
    // Every frame points at a tick record; every frame record was received by a client.
    expect(frames.length).toBe([...served.values()].filter((s) => s.via === 'stream').length);
    for (const f of frames) expect(byId.get(f.tickId)).toMatchObject({ kind: 'stream_tick' });
    expect(entries.filter((e) => e.type === 'quote' && e.kind === 'rest').length).toBe(
      [...served.values()].filter((s) => s.via !== 'stream').length,
    );
  });

  it('replays every requestId byte for byte', async () => {
    let asOf = 0;
    let frames = 0;
    for (const [requestId, s] of served) {
      const found = await findQuote(reader, requestId);
      expect(found, requestId).not.toBeNull();
      const replay = await replayQuote(reader, found!.record);
      expect(replay.body, `${s.via} ${requestId}`).toBe(s.body);
      expect(replay.identical).toBe(true);
      expect(replay.notes).toEqual([]);
      if (s.asOf !== null) asOf++;
      if (found!.tick !== undefined) frames++;
    }
    expect(asOf).toBeGreaterThan(40);
    expect(frames).toBeGreaterThan(40);
  }, 60_000);

  it('the requestId index the API kept finds every record without reading the journal', async () => {
    // One index per journal topic: REST answers in quotes, stream frames (and ticks) in stream.
    const indexes = journalIndexes(reader, journalIndexDir(dir));
    for (const [requestId, s] of served) {
      const got = await indexes[s.via === 'stream' ? 'stream' : 'quotes'].entries(requestId);
      expect(got.scanned, requestId).toBe(0);
      expect(got.entries.length, requestId).toBe(1);
      const viaIndex = await findQuotes(reader, requestId, indexes);
      const byScan = await findQuotes(reader, requestId);
      expect(viaIndex).toEqual(byScan);
    }
  }, 60_000);

  it('the built CLI reproduces an asOf quote and a stream frame', () => {
    const main = join(__dirname, '../../dist/apps/replay/src/main.js');
    expect(existsSync(main), 'run npm run build first (npm test does)').toBe(true);
    const pick = (f: (s: Served) => boolean): [string, Served] => [...served].find(([, s]) => f(s))!;
    for (const [requestId, s] of [pick((s) => s.asOf !== null), pick((s) => s.via === 'stream')]) {
      const r = spawnSync(process.execPath, [main, 'quote', requestId, '--data-dir', dir], {
        encoding: 'utf8',
        env: { ...process.env, KAFKA_BROKERS: undefined },
      });
      expect(r.stderr).toMatch(/^identical: sha256 [0-9a-f]{64}/);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`${s.body}\n`);
    }
  });
});
