/**
 * The hostile bench's attack set: one request of each kind issue 9 measured or names, sent on its
 * own connection and read to its answer (or close). Each resolves once the server has answered.
 */
import { connect } from 'node:net';
import WebSocket from 'ws';

/** One attack: its name and one request of it. */
export interface Attack {
  readonly name: string;
  run(port: number): Promise<void>;
}

/** Write `data` on a new connection; resolve when the server closes it or an answer's head arrived and the body is complete. */
function send(port: number, data: string | Buffer): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let got = Buffer.alloc(0);
    const done = (): void => {
      socket.destroy();
      resolve();
    };
    socket.on('connect', () => socket.write(data));
    socket.on('data', (c: Buffer) => {
      got = Buffer.concat([got, c]);
      const end = got.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(
        got.subarray(0, Math.max(0, end)).toString('latin1'),
      );
      if (end >= 0 && length !== null && got.length >= end + 4 + Number(length[1])) done();
    });
    socket.on('close', done);
    socket.on('error', done);
  });
}

const get = (path: string, extra = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: b\r\n${extra}Connection: close\r\n\r\n`;
const post = (body: string): string =>
  `POST /route HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
const digits = (n: number): string => '1'.repeat(n);

/** Open the stream with `query` and await the server's close (a refused request). */
function streamOpen(port: number, query: string): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream/route?${query}`);
    ws.on('error', () => resolve());
    ws.on('close', () => resolve());
  });
}

/** Open the stream, send one binary message of `bytes` (or announce one that large), await the close. */
function streamMessage(port: number, bytes: number, announceOnly: boolean): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream/route?from=USDT&to=BTC&amountIn=1&bridges=`);
    ws.on('error', () => resolve());
    ws.on('close', () => resolve());
    ws.once('message', () => {
      if (!announceOnly) return ws.send(Buffer.alloc(bytes, 0x5b));
      const socket = (ws as unknown as { _socket: { write(b: Buffer): void } })._socket;
      socket.write(
        Buffer.from([
          0x82,
          0xff,
          0,
          0,
          0,
          0,
          bytes >>> 24,
          (bytes >> 16) & 255,
          (bytes >> 8) & 255,
          bytes & 255,
          1,
          2,
          3,
          4,
        ]),
      );
      socket.write(Buffer.alloc(1 << 20, 0x5b));
    });
  });
}

export const ATTACKS: readonly Attack[] = [
  {
    name: 'POST 64 KB number',
    run: (p) => send(p, post(JSON.stringify({ from: 'USDT', to: 'BTC', amountIn: `${digits(64_000)}x` }))),
  },
  {
    name: 'GET 15,000 digits',
    run: (p) => send(p, get(`/route?from=USDT&to=BTC&amountIn=${digits(15_000)}x`)),
  },
  {
    name: 'GET 4,000-digit amountIn',
    run: (p) => send(p, get(`/route?from=USDT&to=BTC&amountIn=${digits(4000)}x`)),
  },
  {
    name: 'GET 4,000-digit balances',
    run: (p) => send(p, get(`/route?from=USDT&to=BTC&amountIn=1&balances=USDT:${digits(4000)}x`)),
  },
  {
    name: 'POST 60 KB nested arrays',
    run: (p) => send(p, post(`${'['.repeat(30_000)}${']'.repeat(30_000)}`)),
  },
  {
    name: 'POST 5,000 keys',
    run: (p) =>
      send(p, post(JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 1]))))),
  },
  // Well-formed but the costliest requests a stranger may send: a rebuild of past books from the
  // log (asOf, a second back; the server's books were written at its start) and a quote with its
  // proof and every counterfactual.
  {
    name: 'GET /route asOf a second ago',
    run: (p) => send(p, get(`/route?from=USDT&to=BTC&amountIn=20000&asOf=${Date.now() - 1000}`)),
  },
  {
    name: 'GET /route/explain split_optimal',
    run: (p) => send(p, get('/route/explain?from=USDT&to=BTC&amountIn=20000&strategy=split_optimal')),
  },
  { name: 'POST body over 64 KiB', run: (p) => send(p, post(JSON.stringify({ pad: 'x'.repeat(70_000) }))) },
  { name: 'path of 1,000 %25', run: (p) => send(p, get(`/orderbook/x/${'%25'.repeat(340)}`)) },
  { name: 'path of 5,000 %25 (414)', run: (p) => send(p, get(`/orderbook/x/${'%25'.repeat(5000)}`)) },
  { name: 'bad percent-encoding', run: (p) => send(p, get('/%zz')) },
  { name: 'headers over 16 KiB', run: (p) => send(p, get('/health', `X-Big: ${'a'.repeat(20_000)}\r\n`)) },
  { name: 'malformed HTTP', run: (p) => send(p, 'GET /health HTTP/1.1\r\nHost: x\r\nbad header\r\n\r\n') },
  {
    name: 'h2c upgrade of /health',
    run: (p) =>
      send(
        p,
        get(
          '/health',
          'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\n',
        ).replace('Connection: close\r\n', ''),
      ),
  },
  {
    name: 'stream URL 200-digit amount',
    run: (p) => streamOpen(p, `from=USDT&to=BTC&amountIn=${digits(200)}x`),
  },
  { name: 'stream message of 1 KiB (the largest allowed)', run: (p) => streamMessage(p, 1024, false) },
  { name: 'stream message announcing 95 MB', run: (p) => streamMessage(p, 95 * 1024 * 1024, true) },
];

/** Well-behaved requests, measured the same way for comparison. */
export const BASELINES: readonly Attack[] = [
  { name: 'baseline: GET /health', run: (p) => send(p, get('/health')) },
  {
    name: 'baseline: GET /route split_optimal',
    run: (p) => send(p, get('/route?from=USDT&to=BTC&amountIn=20000&strategy=split_optimal&bridges=')),
  },
];
