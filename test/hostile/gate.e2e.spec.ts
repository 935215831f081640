import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileBystanderAsks } from './support/bystander';
import { expectGatedError, isMintedId } from './support/gated';
import { exchange, get, type RawAnswer } from './support/raw';
import { spawnServer, type SpawnedServer } from './support/server';

// One gate for every answer (issue 9): whatever fails, and wherever (Node's parser, Fastify's
// router, the body parser, the WebSocket handshake), the answer is counted, carries the
// rate-limit headers and an x-request-id, and has a JSON {"error"} body.
let s: SpawnedServer;
beforeAll(async () => {
  s = await spawnServer();
});
afterAll(() => s.stop());

const KEY = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==';
const WS = ['Connection: Upgrade', 'Upgrade: websocket', KEY, 'Sec-WebSocket-Version: 13'];
const STREAM = '/stream/route?from=USDT&to=BTC&amountIn=1';
const json = (body: string, extra: readonly string[] = []): string =>
  [
    'POST /route HTTP/1.1',
    'Host: test',
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...extra,
    '',
    body,
  ].join('\r\n');

interface Case {
  readonly name: string;
  readonly send: string;
  readonly status: number;
  readonly error?: string | RegExp;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Every failure the issue names, each raised by a different layer. */
const ERRORS: readonly Case[] = [
  {
    name: 'bad percent-encoding in the path',
    send: get('/%zz'),
    status: 400,
    error: 'the path has a malformed percent-escape',
  },
  {
    name: 'a path parameter over 100 characters',
    send: get(`/orderbook/binance/${'A'.repeat(150)}`),
    status: 414,
    error: 'a path segment is longer than 100 characters',
  },
  {
    name: 'a path over 1024 characters',
    send: get(`/${'a/'.repeat(600)}`),
    status: 414,
    error: 'the path is longer than 1024 characters',
  },
  {
    name: 'a query string over 4096 characters',
    send: get(`/route?from=USDT&to=BTC&amountIn=${'1'.repeat(5000)}`),
    status: 414,
    error: 'the query string is longer than 4096 characters',
  },
  {
    name: 'headers over 16 KiB',
    send: get('/health', [`X-Big: ${'a'.repeat(20_000)}`]),
    status: 431,
    error: /larger than 16384 bytes/,
  },
  {
    name: 'HTTP/1.1 without Host',
    send: 'GET /health HTTP/1.1\r\n\r\n',
    status: 400,
    error: 'the Host header is required in HTTP/1.1',
  },
  {
    name: 'a malformed header line',
    send: 'GET /health HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n',
    status: 400,
    error: /^malformed HTTP request/,
  },
  {
    name: 'garbage instead of HTTP',
    send: '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03',
    status: 400,
    error: /^malformed HTTP request/,
  },
  {
    name: 'an HTTP/2 preface',
    send: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    status: 400,
    error: /HTTP\/2 is not supported/,
  },
  {
    name: 'an unknown method',
    send: 'BREW /health HTTP/1.1\r\nHost: x\r\n\r\n',
    status: 405,
    headers: { allow: 'GET, HEAD, POST' },
  },
  {
    name: 'DELETE on /route',
    send: 'DELETE /route HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    status: 405,
    headers: { allow: 'GET, HEAD, POST' },
  },
  {
    name: 'POST on /health',
    send: json('{}').replace('/route', '/health'),
    status: 405,
    headers: { allow: 'GET, HEAD' },
  },
  { name: 'CONNECT', send: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', status: 405 },
  { name: 'an unknown path', send: get('/nope'), status: 404, error: "no endpoint at '/nope'" },
  {
    name: 'an unknown path is quoted by prefix only',
    send: get(`/${'x'.repeat(900)}`),
    status: 404,
    error: /^no endpoint at '\/x{31}…' \(901 characters\)$/,
  },
  {
    name: 'a body over 64 KiB',
    send: json(JSON.stringify({ from: 'USDT', pad: 'x'.repeat(70_000) })),
    status: 413,
    error: 'the request body is larger than 65536 bytes',
  },
  {
    name: 'a chunked body over 64 KiB',
    send: `POST /route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${`4000\r\n${' '.repeat(0x4000)}\r\n`.repeat(5)}0\r\n\r\n`,
    status: 413,
  },
  {
    name: 'a 10 MB body announced with Expect: 100-continue (refused before it is sent)',
    send: 'POST /route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\nExpect: 100-continue\r\n\r\n',
    status: 413,
  },
  {
    name: 'a text/plain body',
    send: json('from=USDT').replace('application/json', 'text/plain'),
    status: 415,
    error: 'Content-Type must be application/json',
  },
  {
    name: 'a POST without a body or type',
    send: 'POST /route HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n',
    status: 415,
  },
  {
    name: 'a repeated JSON key',
    send: json('{"from":"USDT","from":"ETH","to":"BTC","amountIn":1}'),
    status: 400,
    error: /repeated|more than once|duplicate/,
  },
  { name: 'a plain GET of the stream', send: get(STREAM), status: 426, headers: { upgrade: 'websocket' } },
  {
    name: 'a plain POST to the stream',
    send: json('{}').replace('/route', '/stream/route'),
    status: 405,
    headers: { allow: 'GET' },
  },
  {
    name: 'a handshake without a key',
    send: get(
      STREAM,
      WS.filter((h) => h !== KEY),
    ),
    status: 400,
    error: 'missing or invalid Sec-WebSocket-Key header',
  },
  {
    name: 'a handshake with a bad version',
    send: get(STREAM, [...WS.slice(0, 3), 'Sec-WebSocket-Version: 7']),
    status: 426,
    headers: { upgrade: 'websocket', 'sec-websocket-version': '13, 8' },
  },
  {
    name: 'a POST handshake',
    send: get(STREAM, WS).replace('GET', 'POST'),
    status: 405,
    headers: { allow: 'GET' },
  },
  {
    name: 'an h2c upgrade of the stream path',
    send: get(STREAM, ['Connection: Upgrade', 'Upgrade: h2c']),
    status: 426,
  },
  { name: 'a handshake without Host', send: get(STREAM, WS).replace('Host: test\r\n', ''), status: 400 },
  {
    name: 'a handshake with a malformed subprotocol list',
    send: get(STREAM, [...WS, 'Sec-WebSocket-Protocol: a,,b']),
    status: 400,
    error: /^invalid WebSocket handshake/,
  },
];

function check(c: Case, a: RawAnswer): void {
  try {
    expectGatedError(a, c.status, c.error);
    for (const [name, value] of Object.entries(c.headers ?? {})) expect(a.headers[name]).toBe(value);
  } catch (e) {
    throw new Error(`${c.name}: ${(e as Error).message}`);
  }
}

describe('every error is a gated JSON answer', () => {
  it('each layer’s failure: its status, {"error"}, x-request-id and rate-limit headers; a bystander is answered meanwhile', async () => {
    await whileBystanderAsks(s.port, async () => {
      for (const c of ERRORS) check(c, await exchange(s.port, c.send));
    });
  });

  it('the same failures from an IPv6 client are 403 {"error":"ipv4_only"}, not counted', async () => {
    for (const c of ERRORS.filter((c) => c.status !== 426 || c.name.includes('plain'))) {
      const a = await exchange(s.port, c.send, { host: '::1' });
      try {
        expectGatedError(a, 403, 'ipv4_only');
      } catch (e) {
        throw new Error(`${c.name} from ::1: ${(e as Error).message}`);
      }
    }
  });

  it('a valid x-request-id is echoed on answers of every layer; a raw parse failure mints one', async () => {
    const routed = await exchange(s.port, get('/%zz', ['X-Request-Id: probe-1']));
    expect(routed.headers['x-request-id']).toBe('probe-1');
    const handshake = await exchange(s.port, get(STREAM, [...WS.slice(0, 3), 'X-Request-Id: probe-2']));
    expect(handshake.headers['x-request-id']).toBe('probe-2');
    const malformed = await exchange(
      s.port,
      'GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: probe-3\r\nbad\r\n\r\n',
    );
    expect(isMintedId(malformed.headers['x-request-id'])).toBe(true);
  });
});

describe('upgrade headers on a plain path are ignored', () => {
  it('an h2c attempt on /health gets the HTTP/1.1 answer', async () => {
    const a = await exchange(
      s.port,
      get('/health', [
        'Connection: Upgrade, HTTP2-Settings',
        'Upgrade: h2c',
        'HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA',
      ]),
    );
    expect(a.raw.startsWith('HTTP/1.1 200 ')).toBe(true);
    expect(a.json).toEqual({ status: 'ok', uptimeSec: expect.any(Number) });
    expect(a.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('a WebSocket upgrade of POST /route is answered as the POST, body and all', async () => {
    const a = await exchange(
      s.port,
      json('{"from":"USDT","to":"BTC","amountIn":100.1,"bridges":[]}', WS.slice(0, 2)),
    );
    expect(a.status).toBe(200);
    expect(a.json.amountOut).toBeCloseTo(1, 9);
  });

  it('an expectation other than 100-continue is ignored', async () => {
    const a = await exchange(s.port, get('/health', ['Expect: tea']));
    expect(a.status).toBe(200);
  });
});

describe('Expect: 100-continue', () => {
  it('a body over the cap is refused before the client sends it: no 100 Continue, then 413', async () => {
    const a = await exchange(
      s.port,
      'POST /route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\nExpect: 100-continue\r\n\r\n',
    );
    expect(a.raw).not.toContain('HTTP/1.1 100');
    expectGatedError(a, 413);
  });

  it('a body within the cap gets 100 Continue and its answer', async () => {
    const body = '{"from":"USDT","to":"BTC","amountIn":100.1,"bridges":""}';
    const a = await exchange(s.port, '', {
      send: (socket) => {
        socket.write(
          `POST /route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
        );
        socket.once('data', () => socket.write(body));
      },
    });
    expect(a.raw.startsWith('HTTP/1.1 100 Continue\r\n')).toBe(true);
    expect(a.status).toBe(200);
  });
});

describe('counting (RATE_LIMIT_RPS=5)', () => {
  let limited: SpawnedServer;
  beforeAll(async () => {
    limited = await spawnServer({ RATE_LIMIT_RPS: '5' });
  });
  afterAll(() => limited.stop());

  it('failures of every layer count against the same window; over it they are 429 with retry-after', async () => {
    // One burst, well inside one 1000 ms window on a busy machine: 12 failures of 4 layers.
    const burst = [
      get('/%zz'),
      'GET / HTTP/1.1\r\nbad\r\n\r\n',
      get(STREAM, WS.slice(0, 2)),
      get(`/x?${'a'.repeat(5000)}`),
    ];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => exchange(limited.port, burst[i % burst.length]!)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((st) => st === 429)).toHaveLength(7);
    for (const a of answers) {
      if (a.status !== 429) continue;
      expectGatedError(a, 429, 'rate limit exceeded: retry after the window resets');
      expect(a.headers['retry-after']).toMatch(/^[1-9]$/);
      expect(a.headers['x-ratelimit-remaining']).toBe('0');
    }
    expect(
      answers
        .filter((a) => a.status !== 429)
        .map((a) => a.headers['x-ratelimit-remaining'])
        .sort((x, y) => (x ?? '').localeCompare(y ?? '')),
    ).toEqual(['0', '1', '2', '3', '4']);
  });
});
