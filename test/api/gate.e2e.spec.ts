import { request } from 'node:http';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sleep } from './support/http';
import { startTestServer, type TestServer } from './support/server';

// The first two checks of every request (clarifications 9-10): IPv4 rule, then the rate limit.
let s: TestServer;
const RPS = 3;
beforeAll(async () => {
  s = await startTestServer({ rateLimitRps: RPS });
});
afterAll(() => s.close());

/** Wait until a fresh window is certain for 127.0.0.1 (windows last 1000 ms). */
const freshWindow = () => sleep(1050);

/** A GET from a chosen local address (node http, so the source address can be set). */
function getFrom(
  localAddress: string,
  host: string,
  path: string,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port: s.server.port, path, localAddress }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('IPv4-only rule', () => {
  it('an IPv6 client (::1) gets 403 {error: ipv4_only} before anything else runs', async () => {
    const r = await call(`http://[::1]:${s.server.port}`, '/route?from=USDT');
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'ipv4_only' });
    // Not even counted: the limiter never saw it.
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('an IPv4 client reaching the dual-stack socket (seen as ::ffff:127.0.0.1) is accepted', async () => {
    await freshWindow();
    const r = await getFrom('127.0.0.1', '127.0.0.1', '/health');
    expect(r.status).toBe(200);
  });

  it('the WebSocket upgrade from ::1 is refused with 403 too', async () => {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://[::1]:${s.server.port}/stream/route?from=USDT&to=BTC&amountIn=1`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(403);
  });
});

describe('fixed-window rate limit (RATE_LIMIT_RPS=3)', () => {
  it('admits exactly RATE_LIMIT_RPS requests per window, then 429 with retry-after; the window resets', async () => {
    await freshWindow();
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < RPS + 2; i++) {
      const r = await call(s.url, '/health');
      statuses.push(r.status);
      remaining.push(r.headers.get('x-ratelimit-remaining'));
      if (r.status === 429) {
        expect(r.body).toEqual({ error: expect.any(String) });
        expect(r.headers.get('retry-after')).toBe('1');
        expect(r.headers.get('x-ratelimit-reset')).toBe('1');
        expect(r.headers.get('x-ratelimit-limit')).toBe(String(RPS));
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(remaining).toEqual(['2', '1', '0', '0', '0']);
    await freshWindow();
    expect((await call(s.url, '/health')).status).toBe(200);
  });

  it('failed requests count like any other', async () => {
    await freshWindow();
    expect((await call(s.url, '/route?from=USDT')).status).toBe(400);
    expect((await call(s.url, '/route?nonsense=1')).status).toBe(400);
    expect((await call(s.url, '/health')).status).toBe(200);
    expect((await call(s.url, '/health')).status).toBe(429);
  });

  it('/route/explain (an extension) is behind the same IPv4 rule and rate limit', async () => {
    const v6 = await call(`http://[::1]:${s.server.port}`, '/route/explain?from=USDT&to=BTC&amountIn=1');
    expect(v6.status).toBe(403);
    await freshWindow();
    const q = '/route/explain?from=USDT&to=BTC&amountIn=1';
    // Sent together, so all four fall in the window the first opens: one after another, three
    // explains on a busy machine took longer than the window and the fourth opened a new one.
    const answers = await Promise.all(Array.from({ length: RPS + 1 }, () => call(s.url, q)));
    expect(answers.map((a) => a.status).sort((a, b) => a - b)).toEqual([200, 200, 200, 429]);
  });

  it('stream upgrades count, carry the headers on 101, and are refused with 429 when over the limit', async () => {
    await freshWindow();
    const ws = new WebSocket(`${s.wsUrl}/stream/route?from=USDT&to=BTC&amountIn=1`);
    const upgrade = await new Promise<Record<string, unknown>>((resolve) =>
      ws.on('upgrade', (res) => resolve(res.headers)),
    );
    expect(upgrade['x-ratelimit-remaining']).toBe('2');
    expect((await call(s.url, '/health')).status).toBe(200);
    expect((await call(s.url, '/health')).status).toBe(200);
    const refused = await new Promise<{ status: number; retryAfter: unknown }>((resolve) => {
      const again = new WebSocket(`${s.wsUrl}/stream/route?from=USDT&to=BTC&amountIn=1`);
      again.on('unexpected-response', (_req, res) =>
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }),
      );
      again.on('error', () => undefined);
    });
    expect(refused).toEqual({ status: 429, retryAfter: '1' });
    ws.close();
  });
});
