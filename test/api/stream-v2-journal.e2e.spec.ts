/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return -- messages are checked by the assertions */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_TOPICS, STREAM_LEDGER } from '@app/events';
import { EmbeddedLog, type EventLog } from '@app/event-log';
import {
  findQuote,
  journalInRange,
  parseJournalEntryLine,
  parseJournalValueLine,
  replayQuote,
} from '@app/audit';
import { encodeFrameRecord, type JournalValue } from '@app/journal';
import { T0 } from '../support/records';
import { sleep } from './support/http';
import { BASE_CONFIG, startTestServer, type TestServer } from './support/server';
import { startApiServer } from '../../apps/api/src/bootstrap';
import { PinnedClock } from '../../apps/api/src/clock';
import { alphaMover, ofType, openV2, resultText, ROUTE, type Message } from './support/stream-v2';
import { runReplayCli } from '../replay/support/run-replay';

// What the journal says about a v2 stream, written by the real service over real sockets: each
// frame its stream, seq, tick and ticksSkipped, each tick its cause; the readers that replay
// results (replay quote, audit) read that journal as before.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ streamMaxPerIp: 10 });
});
afterAll(() => s.close());

const moveAlpha = alphaMover(() => s);

/** Every value of the journal topics and the stream ledger, each parsed (one that does not validate fails the test). */
async function journalValues(log: EventLog): Promise<JournalValue[]> {
  const out: JournalValue[] = [];
  for (const topic of [...JOURNAL_TOPICS, STREAM_LEDGER] as const) {
    const ends = await log.highWatermarks(topic);
    for (let p = 0; p < ends.length; p++)
      for (const e of await log.read(topic, p, 0)) {
        const parsed = parseJournalValueLine(e.value);
        if (!parsed.ok) throw parsed.error;
        out.push(parsed.record);
      }
  }
  return out;
}

/** Open a v2 socket, subscribe `id`, take its opening frame and one pushed by a book move, close. */
async function streamTwoFrames(
  id: string,
  ask: number,
): Promise<{ streamId: string; quotes: { q: Message; text: string }[] }> {
  const c = await openV2(s.wsUrl);
  c.send({ type: 'subscribe', id, route: ROUTE });
  const { streamId } = await c.take(ofType('subscribed', id));
  const quotes = [];
  for (const move of [null, ask]) {
    if (move !== null) {
      await sleep(120);
      await moveAlpha(move);
    }
    const q = await c.take(ofType('quote', id));
    quotes.push({ q, text: resultText(c.raw[c.messages.indexOf(q)]!) });
  }
  c.ws.close();
  await c.closed;
  return { streamId: streamId as string, quotes };
}

describe('the journal of a v2 stream', () => {
  it('frames record streamId, id, seq, tick and ticksSkipped; ticks their cause; replay quote and audit read it as before', async () => {
    const { streamId, quotes } = await streamTwoFrames('j1', 50_500);
    const v1 = await openV2(s.wsUrl, [], '/stream/route?from=USDT&to=BTC&amountIn=100.1&bridges=');
    const v1Frame = await v1.take(() => true);
    v1.ws.close();
    await v1.closed;
    await s.server.journal.flush();
    const reader = new EmbeddedLog({ dataDir: s.dataDir });
    try {
      const values = await journalValues(reader);
      const record = (requestId: string) => values.find((v) => 'requestId' in v && v.requestId === requestId);
      expect(quotes.map(({ q }) => q.seq)).toEqual([1, 2]);
      for (const { q, text } of quotes) {
        const frame = record(q.result.requestId);
        expect(frame?.type).toBe('quote_frame');
        if (frame?.type !== 'quote_frame') continue;
        expect(frame.stream).toEqual({
          streamId,
          id: 'j1',
          seq: q.seq,
          tick: q.tick,
          ticksSkipped: q.ticksSkipped,
        });
        const tick = record(frame.tickId);
        expect(tick?.type === 'quote' && tick.cause).toEqual({
          kind: q.cause.kind,
          markets: q.cause.markets,
        });
        // The reader `replay quote` uses finds the frame through its tick and reproduces its bytes.
        const found = await findQuote(reader, q.result.requestId);
        const replay = await replayQuote(reader, found!.record);
        expect(replay.identical).toBe(true);
        expect(replay.body).toBe(text);
      }
      expect(quotes[1]!.q.cause.kind).toBe('book');
      // The one-route stream's records are what they were: no stream fields, no cause.
      const v1Record = record(v1Frame.requestId as string);
      expect(v1Record?.type === 'quote_frame' && 'stream' in v1Record).toBe(false);
      const v1Tick = v1Record?.type === 'quote_frame' ? record(v1Record.tickId) : undefined;
      expect(v1Tick?.type === 'quote' && v1Tick.kind).toBe('stream_tick');
      expect(v1Tick !== undefined && 'cause' in v1Tick).toBe(false);
      // The auditor's reader replays every result of the journal and finds nothing it cannot read.
      const problems = [];
      let results = 0;
      for await (const o of journalInRange(reader, 0, Number.MAX_SAFE_INTEGER)) {
        results++;
        if (!o.ok) problems.push(o.problem);
      }
      expect(problems).toEqual([]);
      expect(results).toBeGreaterThanOrEqual(3);
    } finally {
      await reader.close();
    }
  });

  it('opens and closes are journalled: request, claimed resume point and verdict, last seq and reason', async () => {
    const c = await openV2(s.wsUrl);
    c.send({ type: 'subscribe', id: 'k1', route: ROUTE });
    const first = await c.take(ofType('subscribed', 'k1'));
    await c.take(ofType('quote', 'k1'));
    c.send({ type: 'unsubscribe', id: 'k1' });
    expect(await c.take(ofType('unsubscribed', 'k1'))).toMatchObject({ lastSeq: 1 });
    const point = { streamId: first.streamId as string, seq: 1 };
    c.send({ type: 'subscribe', id: 'k2', route: ROUTE, resume: point });
    const resumed = await c.take(ofType('subscribed', 'k2'));
    expect(resumed.resume).toEqual({ resumed: true, missedFrames: 0 });
    const unknown = { streamId: '00000000-0000-4000-8000-000000000000', seq: 4 };
    c.send({ type: 'subscribe', id: 'k3', route: ROUTE, resume: unknown });
    const refused = await c.take(ofType('subscribed', 'k3'));
    await c.take(ofType('quote', 'k2'));
    await c.take(ofType('quote', 'k3'));
    c.ws.close();
    await c.closed;
    const old = await openV2(
      s.wsUrl,
      [],
      '/stream/route?from=USDT&to=BTC&amountIn=100.1&bridges=&envelope=v2',
    );
    const oldOpened = await old.take(ofType('subscribed', 'route'));
    await old.take(ofType('quote', 'route'));
    old.ws.close();
    await old.closed;
    await s.server.journal.flush();
    const reader = new EmbeddedLog({ dataDir: s.dataDir });
    try {
      const values = await journalValues(reader);
      const of = (streamId: string, type: 'stream_open' | 'stream_close') =>
        values.filter((v) => v.type === type && v.streamId === streamId);
      const request = first.request as unknown;
      expect(of(point.streamId, 'stream_open')).toEqual([
        expect.objectContaining({ id: 'k1', path: 'stream', request, resume: null, verdict: null }),
      ]);
      expect(of(point.streamId, 'stream_close')).toEqual([
        expect.objectContaining({ id: 'k1', lastSeq: 1, reason: 'unsubscribed', request }),
      ]);
      expect(of(resumed.streamId as string, 'stream_open')).toEqual([
        expect.objectContaining({ id: 'k2', resume: point, verdict: { resumed: true, missedFrames: 0 } }),
      ]);
      expect(of(resumed.streamId as string, 'stream_close')).toEqual([
        expect.objectContaining({ id: 'k2', lastSeq: 1, reason: 'closed' }),
      ]);
      expect(of(refused.streamId as string, 'stream_open')).toEqual([
        expect.objectContaining({ resume: unknown, verdict: { resumed: false, reason: 'unknown_stream' } }),
      ]);
      expect(of(oldOpened.streamId as string, 'stream_open')).toEqual([
        expect.objectContaining({ id: 'route', path: 'stream/route', verdict: null }),
      ]);
      expect(of(oldOpened.streamId as string, 'stream_close')).toEqual([
        expect.objectContaining({ lastSeq: 1, reason: 'closed' }),
      ]);
      // Opens and closes are in their own topic: a reader of results (of any release) never meets
      // them, and every entry of the journal topics reads with the result-only parser.
      expect(await findQuote(reader, point.streamId)).toBeNull();
      // `replay quote <streamId>` says what the id is instead of only "not found".
      const asQuote = await runReplayCli(['quote', point.streamId, '--scan', '--data-dir', s.dataDir]);
      expect(asQuote.code).toBe(3);
      expect(asQuote.err.join('\n')).toContain('is a routestream.v2 stream, not a result (replay stream');
      for (const topic of JOURNAL_TOPICS) {
        const ends = await reader.highWatermarks(topic);
        for (let p = 0; p < ends.length; p++)
          for (const e of await reader.read(topic, p, 0))
            expect(parseJournalEntryLine(e.value).ok, e.value).toBe(true);
      }
    } finally {
      await reader.close();
    }
  });

  it('replay stream lists the open, every frame with contiguous seq and its hash, and the close; --verify reproduces each', async () => {
    const { streamId, quotes } = await streamTwoFrames('r1', 50_600);
    await s.server.journal.flush();
    const json = await runReplayCli(['stream', streamId, '--verify', '--json', '--data-dir', s.dataDir]);
    expect(json.err.join('\n')).toContain(
      `stream ${streamId}: 2 frame(s), 2 of 2 identical; opened, closed at seq 2`,
    );
    expect(json.code).toBe(0);
    const lines = json.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Message);
    expect(lines.map((l) => l.type)).toEqual(['stream_open', 'frame', 'frame', 'stream_close']);
    expect(lines[0]).toMatchObject({ streamId, id: 'r1', resume: null, verdict: null });
    const frames = lines.slice(1, 3);
    expect(frames.map((f) => f.seq)).toEqual([1, 2]);
    for (const [i, f] of frames.entries()) {
      const { q, text } = quotes[i]!;
      expect(f).toMatchObject({
        seq: q.seq,
        tick: q.tick,
        ticksSkipped: q.ticksSkipped,
        cause: { kind: q.cause.kind, markets: q.cause.markets },
        requestId: q.result.requestId,
        resultSha256: q.resultSha256,
        verify: 'identical',
      });
      expect(f.resultSha256).toBe(createHash('sha256').update(text).digest('hex'));
    }
    expect(lines[3]).toMatchObject({ lastSeq: 2, reason: 'closed' });
    // Text, reading partitions instead of the index: the same records, one line each.
    const text = await runReplayCli(['stream', streamId, '--scan', '--data-dir', s.dataDir]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(
      new RegExp(
        `^open  \\S+ id r1 on /stream: USDT->BTC 100.1 \\(exact in, best_single\\); no resume\\nframe seq 1 tick 1 skipped 0 cause open requestId ${quotes[0]!.q.result.requestId} sha256 ${quotes[0]!.q.resultSha256}\\nframe seq 2 tick 2 skipped 0 cause book \\(BTC/USDT\\) requestId \\S+ sha256 \\S+\\nclose \\S+ lastSeq 2 reason closed\\n$`,
      ),
    );
    const unknown = await runReplayCli([
      'stream',
      '00000000-0000-4000-8000-00000000dead',
      '--data-dir',
      s.dataDir,
    ]);
    expect(unknown.code).toBe(3);
  });

  it('replay stream --verify fails on a frame whose bytes differ and on a seq the journal lacks', async () => {
    const { streamId, quotes } = await streamTwoFrames('r2', 50_700);
    await s.server.journal.flush();
    // A forged record: seq 4 (3 missing), pointing at a real tick, with another result's hash.
    const values = await journalValues(s.log);
    const real = values.find(
      (v) => v.type === 'quote_frame' && v.requestId === quotes[1]!.q.result.requestId,
    );
    if (real?.type !== 'quote_frame' || real.stream === undefined) throw new Error('frame record missing');
    const forged = encodeFrameRecord({
      ...real,
      requestId: '00000000-0000-4000-8000-00000000f04d',
      responseSha256: 'ab'.repeat(32),
      stream: { ...real.stream, seq: 4 },
    });
    await s.log.append('stream', [{ key: '00000000-0000-4000-8000-00000000f04d', value: forged }]);
    const run = await runReplayCli(['stream', streamId, '--verify', '--data-dir', s.dataDir]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/frame seq 4 .* DIFFERENT: recorded sha256 (ab){32}, replayed [0-9a-f]{64}/);
    expect(run.err.join('\n')).toContain(
      '3 frame(s), 2 of 3 identical; opened, closed at seq 2; seq missing from the journal: 3; seq past the close: 4',
    );
  });
});

describe('a resume on another replica over the same log', () => {
  it('is proven from the journal with the exact missedFrames; the refusals are the same as on one replica', async () => {
    const other = await startApiServer({
      config: { ...BASE_CONFIG, streamMaxPerIp: 10 },
      feed: s.feed,
      log: s.log,
      clock: new PinnedClock(T0),
      logger: false,
    });
    const otherWs = other.url.replace('http', 'ws');
    try {
      const { streamId } = await streamTwoFrames('x1', 50_800);
      const live = await openV2(s.wsUrl);
      live.send({ type: 'subscribe', id: 'live', route: ROUTE });
      const stillOpen = (await live.take(ofType('subscribed', 'live'))).streamId as string;
      await s.server.journal.flush();
      const b = await openV2(otherWs);
      const cases: [Record<string, unknown>, { streamId: string; seq: number }, unknown][] = [
        [ROUTE, { streamId, seq: 1 }, { resumed: true, missedFrames: 1 }],
        [ROUTE, { streamId, seq: 0 }, { resumed: true, missedFrames: 2 }],
        [ROUTE, { streamId, seq: 3 }, { resumed: false, reason: 'seq_ahead' }],
        [
          { ...ROUTE, amountIn: 7 },
          { streamId, seq: 1 },
          { resumed: false, reason: 'request_mismatch' },
        ],
        [ROUTE, { streamId: stillOpen, seq: 1 }, { resumed: false, reason: 'not_closed' }],
        [
          ROUTE,
          { streamId: '00000000-0000-4000-8000-00000000beef', seq: 1 },
          { resumed: false, reason: 'unknown_stream' },
        ],
      ];
      for (const [i, [route, resume, verdict]] of cases.entries()) {
        b.send({ type: 'subscribe', id: `y${i}`, route, resume });
        expect((await b.take(ofType('subscribed', `y${i}`))).resume, JSON.stringify(resume)).toEqual(verdict);
      }
      expect(await b.take(ofType('quote', 'y0'))).toMatchObject({ seq: 1, cause: { kind: 'resume' } });
      // The one-route stream's envelope resumes the same way.
      const q = `/stream/route?from=USDT&to=BTC&amountIn=100.1&bridges=&envelope=v2&resume=${streamId}.2`;
      const old = await openV2(otherWs, [], q);
      expect((await old.take(ofType('subscribed', 'route'))).resume).toEqual({
        resumed: true,
        missedFrames: 0,
      });
      for (const c of [b, old, live]) {
        c.ws.close();
        await c.closed;
      }
    } finally {
      await other.close();
    }
  });
});
