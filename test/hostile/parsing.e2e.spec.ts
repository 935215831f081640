import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileBystanderAsks } from './support/bystander';
import { expectGatedError } from './support/gated';
import { exchange, get } from './support/raw';
import { spawnServer, type SpawnedServer } from './support/server';
import { handshake } from './support/ws-raw';

// The parsing attacks of issue 9, each sent ten times at once through real sockets while a
// well-behaved client keeps asking: every one is answered at once with its 4xx and a short
// {"error"} (a bad value is quoted by a 32-character prefix), and nobody else waits.
let s: SpawnedServer;
beforeAll(async () => {
  s = await spawnServer();
});
afterAll(() => s.stop());

const digits = (n: number): string => '1'.repeat(n);
const list = (n: number, item: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => item(i)).join(',');
const BASE = 'from=USDT&to=BTC&amountIn=1';
const post = (body: string): string =>
  `POST /route HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

interface Attack {
  readonly name: string;
  readonly send: string;
  readonly status: number;
  readonly error: RegExp;
}

const ATTACKS: readonly Attack[] = [
  {
    name: 'a 65 KB number in a POST body (31 s of backtracking before)',
    send: post(JSON.stringify({ from: 'USDT', to: 'BTC', amountIn: `${digits(64_000)}x` })),
    status: 400,
    error: /^amountIn is longer than 256 characters$/,
  },
  {
    name: 'a GET with 15,000 digits (4 s before)',
    send: get(`/route?from=USDT&to=BTC&amountIn=${digits(15_000)}x`),
    status: 414,
    error: /^the query string is longer than 4096 characters$/,
  },
  {
    name: 'a GET with 4,000 digits',
    send: get(`/route?from=USDT&to=BTC&amountIn=${digits(4000)}x`),
    status: 400,
    error: /^amountIn is longer than 256 characters$/,
  },
  {
    name: 'a long number in balances',
    send: get(`/route?${BASE}&balances=USDT:${digits(4000)}x`),
    status: 400,
    error: /^balances entry 'USDT:1{27}…' \(4006 characters\) must have a finite amount >= 0$/,
  },
  {
    name: 'a long number in hopPenaltyBps',
    send: get(`/route?${BASE}&hopPenaltyBps=${digits(250)}x`),
    status: 400,
    error: /^hopPenaltyBps must be a number written as a plain decimal, got '1{32}…' \(251 characters\)$/,
  },
  {
    name: 'a long number in /orderbook asOf',
    send: get(`/orderbook/binance/BTC%2FUSDT?asOf=${digits(4000)}`),
    status: 400,
    error: /^asOf is longer than 256 characters$/,
  },
  {
    name: '__proto__ as a parameter',
    send: get(`/route?${BASE}&__proto__=1`),
    status: 400,
    error: /^unknown parameter '__proto__'$/,
  },
  {
    name: 'constructor as a parameter',
    send: get(`/route?${BASE}&constructor=1`),
    status: 400,
    error: /^unknown parameter 'constructor'$/,
  },
  {
    name: 'a repeated parameter',
    send: get(`/route?${BASE}&from=ETH`),
    status: 400,
    error: /^parameter 'from' must not be repeated$/,
  },
  {
    name: 'a repeated key in a JSON body',
    send: post('{"from":"USDT","to":"BTC","amountIn":1,"amountIn":2}'),
    status: 400,
    error: /amountIn/,
  },
  {
    name: '__proto__ in a JSON body',
    send: post('{"__proto__":{"polluted":1},"from":"USDT"}'),
    status: 400,
    error: /__proto__/,
  },
  {
    name: '__proto__ in balances',
    send: post('{"from":"USDT","to":"BTC","amountIn":1,"balances":{"__proto__":1}}'),
    status: 400,
    error: /__proto__/,
  },
  {
    name: '60 KB of nested arrays',
    send: post(`${'['.repeat(30_000)}${']'.repeat(30_000)}`),
    status: 400,
    error: /nesting deeper than 4/,
  },
  {
    name: '5,000 keys',
    send: post(JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 1])))),
    status: 400,
    error: /more than 512 keys/,
  },
  {
    name: '33 parameters',
    send: get(`/route?${list(33, (i) => `p${i}=1`).replace(/,/g, '&')}`),
    status: 400,
    error: /more than 32 parameters/,
  },
  {
    name: '17 bridges',
    send: get(`/route?${BASE}&bridges=${list(17, (i) => `A${i}`)}`),
    status: 400,
    error: /^bridges has more than 16 entries$/,
  },
  {
    name: '129 exchanges',
    send: get(`/route?${BASE}&exchanges=${list(129, (i) => `v${i}`)}`),
    status: 400,
    error: /^exchanges has more than 128 entries$/,
  },
  {
    name: '129 balances',
    send: get(`/route?${BASE}&balances=${list(129, (i) => `A${i}:1`)}`),
    status: 400,
    error: /^balances has more than 128 entries$/,
  },
  {
    name: 'a bad percent-escape in a value',
    send: get(`/route?${BASE}&bridges=%E0%A4%A`),
    status: 400,
    error: /malformed percent-escape near/,
  },
];

/** A POST /route with these header lines and body bytes (Content-Length counted in bytes). */
const postBytes = (headers: readonly string[], body: Buffer): Buffer =>
  Buffer.concat([
    Buffer.from(
      [
        'POST /route HTTP/1.1',
        'Host: t',
        'Connection: close',
        ...headers,
        `Content-Length: ${body.length}`,
        '',
        '',
      ].join('\r\n'),
      'latin1',
    ),
    body,
  ]);
const BODY = Buffer.from('{"from":"USDT","to":"BTC","amountIn":1,"bridges":""}');

describe('minor HTTP deviations, answered as HTTP (issue 22)', () => {
  it('an HTTP version other than 1.x is 400 (it used to be answered 200)', async () => {
    const http2 = await exchange(s.port, 'GET /health HTTP/2.0\r\nHost: t\r\nConnection: close\r\n\r\n');
    expectGatedError(http2, 400, 'HTTP/2.0 is not supported: send HTTP/1.1');
    // Versions Node's parser does not read at all are malformed requests: 400 too.
    const http3 = await exchange(s.port, 'GET /health HTTP/3.0\r\nHost: t\r\nConnection: close\r\n\r\n');
    expectGatedError(http3, 400, /^malformed HTTP request: Invalid HTTP version/);
    expect((await exchange(s.port, 'GET /health HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('two Host headers are 400 (RFC 9112 3.2), on a request and on a stream handshake', async () => {
    expectGatedError(
      await exchange(s.port, get('/health', ['Host: other'])),
      400,
      'the Host header must appear once',
    );
    const twoHosts = handshake(BASE, ['host: u']);
    expectGatedError(await exchange(s.port, twoHosts), 400, 'the Host header must appear once');
  });

  it('a JSON body in another charset is 415 naming it; utf-8 in any spelling is read', async () => {
    const utf16 = await exchange(
      s.port,
      postBytes(['Content-Type: application/json; charset=utf-16'], Buffer.from(BODY.toString(), 'utf16le')),
    );
    expectGatedError(utf16, 415, "Content-Type charset must be utf-8 (a JSON body is UTF-8), got 'utf-16'");
    for (const ct of [
      'application/json; charset=UTF-8',
      'application/json;charset="utf-8"',
      'application/json',
    ])
      expect((await exchange(s.port, postBytes([`Content-Type: ${ct}`], BODY))).status).toBe(200);
  });

  it('invalid UTF-8 in a JSON body is 400 naming the byte (it was "Request body size did not match Content-Length")', async () => {
    const bad = Buffer.concat([
      Buffer.from('{"from":"USDT","to":"BTC","amountIn":1,"bridges":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const a = await exchange(s.port, postBytes(['Content-Type: application/json'], bad));
    expectGatedError(a, 400, 'body is not valid UTF-8: byte 50 (0xc3) is not part of a valid sequence');
  });

  it('an amount below the smallest meaningful one (1e-12) is 400, on every entry point', async () => {
    const message = /^amountIn must be a number >= 1e-12, got '5e-324'$/;
    expectGatedError(await exchange(s.port, get(`/route?from=USDT&to=BTC&amountIn=5e-324`)), 400, message);
    expectGatedError(
      await exchange(s.port, post('{"from":"USDT","to":"BTC","amountIn":5e-324}')),
      400,
      message,
    );
    expect(
      (await exchange(s.port, get(`/route?from=USDT&to=BTC&amountIn=0.000000000001&bridges=`))).status,
    ).toBe(200);
  });
});

describe('parsing attacks', () => {
  for (const attack of ATTACKS)
    it(`${attack.name}: ${attack.status}, a short {error}, nobody else waits`, async () => {
      const answers = await whileBystanderAsks(s.port, () =>
        Promise.all(Array.from({ length: 10 }, () => exchange(s.port, attack.send))),
      );
      for (const a of answers) {
        expectGatedError(a, attack.status, attack.error);
        expect(a.body.length).toBeLessThan(200);
      }
    });

  it('the server is still up and its memory did not balloon', () => {
    expect(s.alive()).toBe(true);
    expect(s.rssKiB()).toBeLessThan(400 * 1024);
  });
});
