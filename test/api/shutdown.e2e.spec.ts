import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { findQuote } from '@app/audit';
import { logSink, openEventLog } from '@app/event-log';
import { T0, tempDir } from '@test/support';
import { startApp, type App } from '../storage/support/processes';
import { call } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { world } from './support/world';

// Operations conventions (docs/deploy.md): GET /ready for orchestrators, and a stop on SIGTERM
// with a deadline. The built API process on an embedded log: a stop closes streams with 1001,
// lets a request in flight finish and journals it, and says so in its last line; a stop that
// cannot finish within SHUTDOWN_TIMEOUT_MS exits anyway, counting what it left unfinished.
const BODY = JSON.stringify({ from: 'USDT', to: 'BTC', amountIn: 100 });
const apps: App[] = [];
const sockets: Socket[] = [];
const dir = tempDir('api-shutdown');
const dataDir = dir.path;

beforeAll(async () => {
  const log = openEventLog({ kafkaBrokers: null, dataDir });
  await logSink(log).write(world());
  await log.close();
});
afterAll(() => {
  for (const s of sockets) s.destroy();
  for (const a of apps) if (a.alive()) a.child.kill('SIGKILL');
  dir.remove();
});

/** The built API on the seeded log (a copy per test would be the same: each stop leaves it whole). */
async function startApi(env: Record<string, string> = {}): Promise<{ app: App; url: string; port: number }> {
  const app = startApp('apps/api/src/main.js', ['--port', '0', '--host', '127.0.0.1', '--now', String(T0)], {
    DATA_DIR: dataDir,
    LOG_FORMAT: 'json',
    RATE_LIMIT_RPS: '1000000',
    ...env,
  });
  apps.push(app);
  const port = Number((await app.waitFor(/"message":"listening","port":(\d+)/))[1]);
  return { app, url: `http://127.0.0.1:${port}`, port };
}

/** A POST /route whose body is half sent: in flight until `finish()` sends the rest. */
async function halfSentPost(port: number): Promise<{ finish(): void; answer: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  await new Promise<void>((r) => socket.once('connect', () => r()));
  const half = Math.floor(BODY.length / 2);
  socket.write(
    `POST /route HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, half)}`,
  );
  let text = '';
  socket.on('data', (c: Buffer) => (text += c.toString()));
  const answer = new Promise<string>((done) => socket.once('close', () => done(text)));
  return { finish: () => socket.end(BODY.slice(half)), answer };
}

/** The JSON log lines of `app` whose message is `message`. */
function lines(app: App, message: string): Record<string, unknown>[] {
  return app
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.message === message);
}

describe('GET /ready', () => {
  let s: TestServer;
  afterAll(async () => {
    await s?.close();
  });

  it('200 once the cache has caught up; 503 with retry-after once a stop has begun, /health still 200', async () => {
    s = await startTestServer();
    expect(await call(s.url, '/ready')).toMatchObject({
      status: 200,
      body: { ready: true, status: 'ready' },
    });
    s.server.status.markStopping();
    const stopping = await fetch(`${s.url}/ready`);
    expect([stopping.status, stopping.headers.get('retry-after')]).toEqual([503, '1']);
    expect(await stopping.json()).toEqual({ ready: false, status: 'stopping' });
    expect((await call(s.url, '/health')).status).toBe(200);
  });
});

describe('stop on SIGTERM', () => {
  it('closes streams with 1001, finishes the request in flight, journals it, and exits 0 saying so', async () => {
    const { app, url, port } = await startApi();
    expect((await call(url, '/ready')).status).toBe(200);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream/route?from=USDT&to=BTC&amountIn=100`);
    const closed = new Promise<[number, string]>((done) =>
      ws.once('close', (code, reason) => done([code, reason.toString()])),
    );
    await new Promise<void>((r) => ws.once('message', () => r()));
    const post = await halfSentPost(port);
    await new Promise((r) => setTimeout(r, 200)); // the server has read the head and half the body

    app.child.kill('SIGTERM');
    expect(await closed).toEqual([1001, 'server shutting down']);
    post.finish();
    const answer = await post.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const requestId = /"requestId":"([^"]+)"/.exec(answer)![1]!;
    expect(await app.exited).toEqual({ code: 0, signal: null });

    expect(lines(app, 'stopping')).toMatchObject([
      { signal: 'SIGTERM', pendingStreams: 1, pendingRequests: 1 },
    ]);
    expect(lines(app, 'stopped')).toMatchObject([
      { streamsClosed: 1, requestsFinished: 1, requestsUnfinished: 0, journalRecordsLost: 0 },
    ]);
    // The answered request is in the journal the process closed.
    const log = openEventLog({ kafkaBrokers: null, dataDir });
    try {
      expect((await findQuote(log, requestId))?.record).toMatchObject({ requestId });
    } finally {
      await log.close();
    }
  }, 60_000);

  it('exits 1 at SHUTDOWN_TIMEOUT_MS when a request never finishes, counting it in its last line', async () => {
    const { app, port } = await startApi({ SHUTDOWN_TIMEOUT_MS: '1500' });
    const post = await halfSentPost(port);
    await new Promise((r) => setTimeout(r, 200));
    const signalledAt = performance.now();
    app.child.kill('SIGTERM');
    expect(await app.exited).toEqual({ code: 1, signal: null });
    // The deadline, not the request timeout (30 s), ended it.
    expect(performance.now() - signalledAt).toBeLessThan(15_000);
    expect(lines(app, 'stop deadline passed: exiting with work unfinished')).toMatchObject([
      { deadlineMs: 1500, requestsUnfinished: 1, journalRecordsLost: 0 },
    ]);
    expect(await post.answer).toBe('');
  }, 60_000);
});
