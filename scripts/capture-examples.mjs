#!/usr/bin/env node
// Capture the examples of the OpenAPI and AsyncAPI documents from running servers (never written
// by hand): the demo recording (replay-data/) for the market and most route answers, and the
// small test world (test/api/fixtures/world.jsonl), where USDT->ETH exists only over BTC, for the
// bridged route and the 501. Writes apps/api/src/docs/examples.json. Run after `npm run build`
// (`npm run docs:examples` does both).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import WebSocket from 'ws';

const ROOT = resolve(import.meta.dirname, '..');
const MAIN = join(ROOT, 'dist/apps/api/src/start.js');
const OUT = join(ROOT, 'apps/api/src/docs/examples.json');

/** Start the all-in-one entry on a recording at max speed; resolves with its base URL and a stop function. */
function serve(replay, env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'examples-'));
  const child = spawn(process.execPath, [MAIN, '--replay', replay, '--speed', 'max', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, RATE_LIMIT_RPS: '1000', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c.toString();
      const m = /"message":"listening","port":(\d+)/.exec(out);
      if (m !== null)
        ok({
          url: `http://127.0.0.1:${m[1]}`,
          stop: () => {
            child.kill('SIGTERM');
            rmSync(dataDir, { recursive: true, force: true });
          },
        });
    });
    child.on('exit', (code) => fail(new Error(`server exited ${code}`)));
  });
}

async function get(base, path, expected, init = {}) {
  const res = await fetch(base + path, { ...init, headers: { 'x-request-id': 'example', ...init.headers } });
  if (res.status !== expected) throw new Error(`${path}: ${res.status}, expected ${expected}`);
  return res.json();
}

function firstFrame(base, query) {
  return new Promise((ok, fail) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/stream/route?${query}`);
    ws.once('message', (data) => {
      ok(JSON.parse(data.toString()));
      ws.close();
    });
    ws.once('error', fail);
  });
}

const examples = {};
const demo = await serve('replay-data/');
try {
  const d = demo.url;
  examples.route_ok = await get(
    d,
    '/route?from=USDT&to=BTC&amountIn=1000&strategy=split_optimal&exchanges=sim00,sim01,sim02',
    200,
  );
  // SOL -> XRP through USDT: legs in whole steps of their venues (docs/replay.md "SOL and XRP on
  // executable legs").
  examples.route_executable = await get(
    d,
    '/route?from=SOL&to=XRP&amountIn=150&strategy=split_optimal&bridges=USDT&includeQuotes=false',
    200,
  );
  examples.route_unroutable = await get(d, '/route?from=USDT&to=BTC&amountIn=1000&exchanges=', 200);
  examples.route_no_market = await get(d, '/route?from=USDT&to=DOGE&amountIn=100', 404);
  examples.route_bad_request = await get(d, '/route?from=USDT&to=BTC', 400);
  examples.query_too_long = await get(
    d,
    `/route?from=USDT&to=BTC&amountIn=1&exchanges=${'sim00,'.repeat(700)}sim01`,
    414,
  );
  examples.body_too_large = await get(d, '/route', 413, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'USDT', to: 'BTC', amountIn: 1, pad: 'x'.repeat(70_000) }),
  });
  examples.media_type = await get(d, '/route', 415, {
    method: 'POST',
    headers: { 'content-type': 'application/xml' },
    body: '<route/>',
  });
  examples.not_found = await get(d, '/nowhere', 404);
  examples.method_not_allowed = await get(d, '/health', 405, { method: 'DELETE' });
  examples.stream_plain_http = await get(d, '/stream/route?from=USDT&to=BTC&amountIn=1', 426);
  examples.orderbook = await get(d, '/orderbook/sim00/USDC%2FUSDT', 200);
  examples.orderbook_not_found = await get(d, '/orderbook/nowhere/BTC%2FUSDT', 404);
  examples.orderbook_bad_as_of = await get(d, '/orderbook/sim00/BTC%2FUSDT?asOf=0', 400);
  examples.symbols = await get(d, '/symbols', 200);
  examples.exchanges_status = await get(d, '/exchanges/status', 200);
  examples.health = await get(d, '/health', 200);
  examples.stream_frame = await firstFrame(d, 'from=USDT&to=BTC&amountIn=1000&exchanges=sim00,sim01');
  examples.stream_error = await firstFrame(d, 'from=USDT&amountIn=1000');
} finally {
  demo.stop();
}
const world = await serve('test/api/fixtures/world.jsonl');
try {
  examples.route_bridged = await get(world.url, '/route?from=USDT&to=ETH&amountIn=100', 200);
  examples.route_exact_out_bridged = await get(world.url, '/route?from=USDT&to=ETH&amountOut=1', 501);
} finally {
  world.stop();
}
const limited = await serve('test/api/fixtures/world.jsonl', { RATE_LIMIT_RPS: '1' });
try {
  await get(limited.url, '/health', 200);
  examples.rate_limited = await get(limited.url, '/health', 429);
} finally {
  limited.stop();
}

const text = await format(JSON.stringify(examples), { ...(await resolveConfig(OUT)), filepath: OUT });
writeFileSync(OUT, text);
process.stdout.write(`wrote ${Object.keys(examples).length} examples to ${OUT}\n`);
