import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findStreamEnds } from '@app/audit';
import { KafkaLog, logSink } from '@app/event-log';
import { book, T0, tempDir } from '@test/support';
import { testBrokers } from '../kafka/broker';
import { startApp, type App } from '../storage/support/processes';
import { ofType, openV2, ROUTE, type Message, type V2Client } from './support/stream-v2';
import { world } from './support/world';

// Issue 28, resume on any replica as users run them: two built API processes (`route-service
// api`) on one Kafka log, each its own origin name and port. A client streams from A, drops, and
// resumes on B, which never saw the stream: B proves the resume from the stream ledger A wrote to
// Kafka, with the exact missedFrames, and refuses the same way A would.
const dir = tempDir('stream-v2-replicas');
const apps: App[] = [];
let log: KafkaLog;
/** ws:// bases of the replicas (C is stopped gracefully, A killed, by the last two tests). */
let a: string;
let b: string;
let c: string;

async function startApi(brokers: string, topicPrefix: string, name: string): Promise<string> {
  const app = startApp('apps/api/src/main.js', ['--port', '0', '--host', '127.0.0.1', '--now', String(T0)], {
    KAFKA_BROKERS: brokers,
    TOPIC_PREFIX: topicPrefix,
    DATA_DIR: join(dir.path, name),
    RECEIPT_ORIGIN_NAME: name,
    LOG_FORMAT: 'json',
    // The retries below open a socket each; the per-address request limit is not under test here.
    RATE_LIMIT_RPS: '1000000',
  });
  apps.push(app);
  const port = (await app.waitFor(/"message":"listening","port":(\d+)/, 90_000))[1];
  return `ws://127.0.0.1:${port}`;
}

beforeAll(async () => {
  const brokers = await testBrokers();
  const topicPrefix = `sv2-${randomUUID().slice(0, 8)}`;
  log = new KafkaLog({ brokers: brokers.split(','), topicPrefix });
  await logSink(log).write(world());
  [a, b, c] = await Promise.all([
    startApi(brokers, topicPrefix, 'api-a'),
    startApi(brokers, topicPrefix, 'api-b'),
    startApi(brokers, topicPrefix, 'api-c'),
  ]);
}, 120_000);

afterAll(async () => {
  for (const app of apps) if (app.alive()) app.child.kill('SIGKILL');
  await log?.close();
  dir.remove();
});

/** B's log lines saying a resume point could not be looked up in the journal. */
function lookupFailures(): string[] {
  return `${apps[1]!.stdout()}\n${apps[1]!.stderr()}`
    .split('\n')
    .filter((l) => l.includes('resume point not looked up'));
}

async function close(...clients: V2Client[]): Promise<void> {
  for (const c of clients) {
    c.ws.close();
    await c.closed;
  }
}

/** What B answers a subscribe resuming `resume` of `route`, on a socket of its own. */
async function verdictOnB(route: Record<string, unknown>, resume: { streamId: string; seq: number }) {
  const c = await openV2(b).catch((e: { status?: number; body?: string }) => {
    throw new Error(`B refused the socket: ${e.status} ${e.body}`);
  });
  try {
    c.send({ type: 'subscribe', id: 'probe', route, resume });
    return (await c.take(ofType('subscribed', 'probe'), 10_000)).resume as Message;
  } finally {
    await close(c);
  }
}

/**
 * A's records reach Kafka with its journal's batched flush: until then B answers unknown_stream
 * (or not_closed, the open seen before the close). A client retries its resume within the window
 * as any reconnecting client would, a few times a second; the answer it settles on is returned.
 */
async function settledVerdictOnB(
  route: Record<string, unknown>,
  resume: { streamId: string; seq: number },
  pending: readonly string[],
): Promise<Message> {
  const deadline = performance.now() + 20_000;
  for (;;) {
    const verdict = await verdictOnB(route, resume);
    if (verdict.resumed === true || !pending.includes(verdict.reason as string)) return verdict;
    if (performance.now() > deadline) return verdict;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('a routestream.v2 resume on another API process over the same Kafka log', () => {
  it('B proves A’s closed stream with the exact missedFrames, and refuses seq_ahead, request_mismatch, not_closed and unknown_stream', async () => {
    const onA = await openV2(a);
    onA.send({ type: 'subscribe', id: 's1', route: ROUTE });
    const { streamId } = (await onA.take(ofType('subscribed', 's1'), 10_000)) as { streamId: string };
    expect(await onA.take(ofType('quote', 's1'), 10_000)).toMatchObject({ seq: 1, cause: { kind: 'open' } });
    // A book move through Kafka: A pushes the stream's second frame.
    await logSink(log).write([book('alpha', 'BTC/USDT', [[50_499, 1]], [[50_500, 5]], 2)]);
    const moved = await onA.take(ofType('quote', 's1'), 10_000);
    expect(moved).toMatchObject({ seq: 2, cause: { kind: 'book' } });
    const live = await openV2(a);
    live.send({ type: 'subscribe', id: 'live', route: ROUTE });
    const stillOpen = (await live.take(ofType('subscribed', 'live'), 10_000)).streamId as string;
    await close(onA);

    // The client dropped after seq 1 and reconnects to B.
    expect(await settledVerdictOnB(ROUTE, { streamId, seq: 1 }, ['unknown_stream', 'not_closed'])).toEqual({
      resumed: true,
      missedFrames: 1,
    });
    expect(await settledVerdictOnB(ROUTE, { streamId: stillOpen, seq: 1 }, ['unknown_stream'])).toEqual({
      resumed: false,
      reason: 'not_closed',
    });
    // Once B has read the close, every verdict is immediate and exact, on one socket.
    const onB = await openV2(b);
    const cases: [Record<string, unknown>, { streamId: string; seq: number }, unknown][] = [
      [ROUTE, { streamId, seq: 1 }, { resumed: true, missedFrames: 1 }],
      [ROUTE, { streamId, seq: 0 }, { resumed: true, missedFrames: 2 }],
      [ROUTE, { streamId, seq: 2 }, { resumed: true, missedFrames: 0 }],
      [ROUTE, { streamId, seq: 3 }, { resumed: false, reason: 'seq_ahead' }],
      [
        { ...ROUTE, amountIn: 7 },
        { streamId, seq: 1 },
        { resumed: false, reason: 'request_mismatch' },
      ],
      [ROUTE, { streamId: randomUUID(), seq: 1 }, { resumed: false, reason: 'unknown_stream' }],
    ];
    for (const [i, [route, resume, verdict]] of cases.entries()) {
      onB.send({ type: 'subscribe', id: `r${i}`, route, resume });
      const subscribed = await onB.take(ofType('subscribed', `r${i}`), 10_000);
      expect(subscribed.resume, `${JSON.stringify(resume)} ${lookupFailures().join('\n')}`).toEqual(verdict);
      // Always a new stream, never the old id.
      expect(subscribed.streamId).not.toBe(resume.streamId);
    }
    // B sends the current state first: its own seq 1, cause resume, over A's moved book.
    const first = await onB.take(ofType('quote', 'r0'), 10_000);
    expect(first).toMatchObject({ seq: 1, cause: { kind: 'resume' } });
    expect({ ...first.result, requestId: null }).toEqual({ ...moved.result, requestId: null });
    await close(onB, live);
    // Every lookup B made read the ledger: none fell back to "unknown" on a Kafka error.
    expect(lookupFailures()).toEqual([]);
  });

  it('a process stopped gracefully (a deploy) says goaway and closes its streams: B proves their resume', async () => {
    const onC = await openV2(c);
    onC.send({ type: 'subscribe', id: 'd', route: ROUTE });
    const { streamId } = (await onC.take(ofType('subscribed', 'd'), 10_000)) as { streamId: string };
    expect(await onC.take(ofType('quote', 'd'), 10_000)).toMatchObject({ seq: 1 });
    await logSink(log).write([book('alpha', 'BTC/USDT', [[50_497, 1]], [[50_502, 5]], 4)]);
    expect(await onC.take(ofType('quote', 'd'), 10_000)).toMatchObject({ seq: 2 });
    apps[2]!.child.kill('SIGTERM');
    expect(await onC.take(ofType('goaway'), 10_000)).toMatchObject({ reconnectAfterMs: expect.any(Number) });
    expect((await onC.closed).code).toBe(1001);
    expect(await apps[2]!.exited).toEqual({ code: 0, signal: null });
    // The client had read seq 1 when the deploy began; C wrote the close (reason shutdown) before it exited.
    expect(await verdictOnB(ROUTE, { streamId, seq: 1 })).toEqual({ resumed: true, missedFrames: 1 });
    const ends = await findStreamEnds(log, streamId);
    expect(ends.close).toMatchObject({ lastSeq: 2, reason: 'shutdown' });
  });

  // Runs last: it kills A.
  it('after A is killed, B proves the streams A had closed and refuses those it held open: not_closed, never resumed', async () => {
    const held = await openV2(a);
    held.send({ type: 'subscribe', id: 'h', route: ROUTE });
    const { streamId: heldId } = (await held.take(ofType('subscribed', 'h'), 10_000)) as { streamId: string };
    expect(await held.take(ofType('quote', 'h'), 10_000)).toMatchObject({ seq: 1 });
    await logSink(log).write([book('alpha', 'BTC/USDT', [[50_498, 1]], [[50_501, 5]], 3)]);
    expect(await held.take(ofType('quote', 'h'), 10_000)).toMatchObject({ seq: 2, cause: { kind: 'book' } });
    const ended = await openV2(a);
    ended.send({ type: 'subscribe', id: 'e', route: ROUTE });
    const { streamId: endedId } = (await ended.take(ofType('subscribed', 'e'), 10_000)) as {
      streamId: string;
    };
    await ended.take(ofType('quote', 'e'), 10_000);
    ended.send({ type: 'unsubscribe', id: 'e' });
    expect(await ended.take(ofType('unsubscribed', 'e'), 10_000)).toMatchObject({ lastSeq: 1 });
    // Both records reached Kafka before the kill: B has seen the held stream's open and the other's close.
    expect(
      await settledVerdictOnB(ROUTE, { streamId: endedId, seq: 1 }, ['unknown_stream', 'not_closed']),
    ).toEqual({ resumed: true, missedFrames: 0 });
    expect(await settledVerdictOnB(ROUTE, { streamId: heldId, seq: 1 }, ['unknown_stream'])).toEqual({
      resumed: false,
      reason: 'not_closed',
    });

    apps[0]!.child.kill('SIGKILL');
    expect((await apps[0]!.exited).signal).toBe('SIGKILL');
    await held.closed;
    await ended.closed;
    // A sent seq 2 of the held stream; it wrote no close, so no seq claimed can be proven, not
    // even one matching what it sent; the client gets a new stream with the current state.
    const onB = await openV2(b);
    for (const [i, seq] of [0, 1, 2, 3].entries()) {
      onB.send({ type: 'subscribe', id: `k${i}`, route: ROUTE, resume: { streamId: heldId, seq } });
      expect((await onB.take(ofType('subscribed', `k${i}`), 10_000)).resume).toEqual({
        resumed: false,
        reason: 'not_closed',
      });
    }
    expect(await onB.take(ofType('quote', 'k0'), 10_000)).toMatchObject({
      seq: 1,
      cause: { kind: 'resume' },
    });
    // What A closed before it died is still proven.
    onB.send({ type: 'subscribe', id: 'k9', route: ROUTE, resume: { streamId: endedId, seq: 1 } });
    expect((await onB.take(ofType('subscribed', 'k9'), 10_000)).resume).toEqual({
      resumed: true,
      missedFrames: 0,
    });
    await close(onB);
    expect(lookupFailures()).toEqual([]);
  });
});
