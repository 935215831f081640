import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileBystanderAsks } from './support/bystander';
import { exchange, type RawAnswer } from './support/raw';
import { spawnServer, type SpawnedServer } from './support/server';

// Property-based hostile input (issue 9): generated malformed queries, bodies, headers and request
// lines, each on its own connection. Whatever arrives, the answer is a 4xx or a route outcome,
// never a 5xx, always JSON, errors exactly {"error"} and short; a bystander is answered meanwhile.
let s: SpawnedServer;
beforeAll(async () => {
  s = await spawnServer({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1000' });
});
afterAll(() => s.stop());

/** What every answer must be, whatever was sent. */
function expectSane(a: RawAnswer, sent: string): void {
  const where = `sent ${JSON.stringify(sent.slice(0, 200))}, got ${JSON.stringify(a.raw.slice(0, 300))}`;
  expect(a.status, where).toBeGreaterThanOrEqual(200);
  // 501 is the spec's exact_out_multi_hop_unsupported outcome (a full RouteResult), not a failure.
  if (a.status >= 500) expect(a.json?.unroutableReason, where).toBe('exact_out_multi_hop_unsupported');
  expect(a.headers['content-type'], where).toMatch(/^application\/json/);
  expect(a.headers['x-request-id'], where).toBeDefined();
  if (a.json?.error !== undefined) {
    expect(Object.keys(a.json as object), where).toEqual(['error']);
    expect(a.body.length, where).toBeLessThan(400);
  }
}

const NAMES = [
  'from',
  'to',
  'amountIn',
  'amountOut',
  'strategy',
  'maxVenues',
  'bridges',
  'hopPenaltyBps',
  'exchanges',
];
const HOSTILE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'exchange',
  '',
  '%zz',
  '%00',
];
/** Text built from what parsers trip on: digits, signs, escapes, separators, non-ASCII. */
const nasty = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '1',
        '0',
        '.',
        'e',
        'E',
        '-',
        '+',
        '%',
        '%2',
        '%zz',
        '%C3%A9',
        '%E0%A4%A',
        '%00',
        ',',
        ':',
        '&',
        '=',
        'x',
        'ß',
        '𝟙',
        'Infinity',
        'NaN',
        '0x1',
      ),
      fc.stringMatching(/^[0-9]{1,400}$/),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));
/** Characters llhttp accepts in a request target (a space or control character ends it). */
const targetSafe = (text: string): string =>
  [...text]
    .filter((c) => c.charCodeAt(0) > 32 && c.charCodeAt(0) !== 127)
    .join('')
    .replace(/#/g, '%23');

const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.constantFrom(...HOSTILE_NAMES), nasty), nasty), {
    maxLength: 40,
  })
  .map((pairs) => targetSafe(pairs.map(([n, v]) => `${n}=${v}`).join('&')));

const body = fc.oneof(
  fc.json({ maxDepth: 6 }),
  fc.string({ maxLength: 300 }),
  fc
    .dictionary(
      fc.oneof(fc.constantFrom(...NAMES, ...HOSTILE_NAMES), fc.string({ maxLength: 10 })),
      fc.jsonValue({ maxDepth: 3 }),
    )
    .map((o) => JSON.stringify(o)),
  fc
    .tuple(fc.constantFrom(...NAMES), fc.jsonValue(), fc.jsonValue())
    .map(([k, a, b]) => `{"${k}":${JSON.stringify(a)},"${k}":${JSON.stringify(b)}}`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  nasty.map((v) => `{"from":"USDT","to":"BTC","amountIn":"${v.replace(/["\\]/g, '')}"}`),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/jsonx',
  '',
);

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/);
const headerLine = fc.oneof(
  fc.tuple(token, fc.string({ maxLength: 40 })).map(([n, v]) => `${n}: ${v}`),
  fc.constantFrom(
    'Content-Length: 1, 2',
    'Content-Length: -1',
    'Content-Length: 99999999999999999999',
    'Transfer-Encoding: chunked, chunked',
    'Transfer-Encoding: gzip',
    'Host: a\r\nHost: b',
    'X-Forwarded-For: 1.2.3.4, ::1',
    'X-Request-Id: ' + 'a'.repeat(300),
    'X-Request-Id: ../../etc',
    'Connection: upgrade',
    'Upgrade: h2c',
    'Upgrade: websocket',
    'Expect: 100-continue',
    'Expect: nothing',
    ' folded: value',
    'Bad Header',
    ':empty',
    'Nul: a\x00b',
  ),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `X-Long: ${'v'.repeat(n)}`),
);

const PATHS = [
  '/route',
  '/health',
  '/symbols',
  '/exchanges/status',
  '/orderbook/binance/BTC%2FUSDT',
  '/stream/route',
  '/nope',
  '/%zz',
  '*',
  '//route',
  '/route/',
];
const METHOD = fc.constantFrom(
  'GET',
  'POST',
  'HEAD',
  'PUT',
  'DELETE',
  'OPTIONS',
  'PATCH',
  'TRACE',
  'BREW',
  'get',
  'G E T',
);

describe('generated hostile requests', () => {
  const run = (
    property: fc.IAsyncPropertyWithHooks<[string]> | fc.IAsyncProperty<[string]>,
    numRuns: number,
  ) => whileBystanderAsks(s.port, () => fc.assert(property, { numRuns }));
  const check = async (sent: string): Promise<void> =>
    expectSane(await exchange(s.port, sent, { timeoutMs: 8000 }), sent);

  it('malformed query strings on GET /route', async () => {
    await run(
      fc.asyncProperty(query, (q) =>
        check(`GET /route?${q} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n`),
      ),
      120,
    );
  });

  it('malformed bodies and media types on POST /route', async () => {
    await run(
      fc.asyncProperty(
        fc.tuple(body, contentType).map(([b, type]) => {
          const typeLine = type === '' ? '' : `Content-Type: ${type}\r\n`;
          return `POST /route HTTP/1.1\r\nHost: t\r\nConnection: close\r\n${typeLine}Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`;
        }),
        check,
      ),
      120,
    );
  });

  it('malformed header sections, methods and paths', async () => {
    await run(
      fc.asyncProperty(
        fc
          .tuple(
            METHOD,
            fc.constantFrom(...PATHS),
            fc.array(headerLine, { maxLength: 6 }),
            fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', ''),
          )
          .map(([m, p, lines, v]) =>
            [`${m} ${p} ${v}`.trimEnd(), 'Host: t', ...lines, 'Connection: close', '', ''].join('\r\n'),
          ),
        check,
      ),
      150,
    );
    expect(s.alive()).toBe(true);
  });
});
