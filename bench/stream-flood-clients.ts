/**
 * The stream flood's clients, in a process of their own:
 *   node dist/bench/stream-flood-clients.js <port> <streams> <addresses> <distinct requests> [v1|v2]
 * Opens <streams> streams over <distinct requests> (stream i asks request i mod distinct), spread
 * over <addresses> loopback addresses 127.0.3.1, ... (stream i from address i mod addresses), a
 * few hundred handshakes at a time. v1: one /stream/route socket a stream; v2: one /stream socket
 * (routestream.v2) per 10 streams of an address, each stream a subscription on it. Prints
 * {"open":n,"failed":m} once each has its first frame (or failed). Then reads commands on stdin,
 * one a line: `reset` zeroes the counts, `report` prints {"frames","bytes","envelopeBytes","ms",
 * "closed"} since the last reset (envelopeBytes: v2 message bytes around the result text).
 */
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { floodAddress, floodQuery } from './stream-flood-queries';

const [port, streams, addresses, distinct] = process.argv.slice(2, 6).map(Number) as [
  number,
  number,
  number,
  number,
];
const v2 = process.argv[6] === 'v2';
/** Subscriptions per v2 socket (the default per-address stream cap). */
const PER_SOCKET = 10;
const RESULT = ',"result":';
const IN_FLIGHT = 200;

let frames = 0;
let bytes = 0;
let envelopeBytes = 0;
let closed = 0;
let since = performance.now();
const sockets: WebSocket[] = [];

function open(i: number): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream/route?${floodQuery(i % distinct)}`, {
      localAddress: floodAddress(i % addresses),
      skipUTF8Validation: true,
    });
    sockets.push(ws);
    let first = true;
    ws.on('message', (data: Buffer) => {
      frames++;
      bytes += data.length;
      if (first) {
        first = false;
        resolve(true);
      }
    });
    ws.on('error', () => resolve(false));
    ws.on('close', () => {
      closed++;
      resolve(false);
    });
  });
}

/** One v2 socket carrying streams first .. first + count - 1 (same address); resolves with how many opened. */
function openV2(first: number, count: number): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream`, 'routestream.v2', {
      localAddress: floodAddress(first % addresses),
      skipUTF8Validation: true,
    });
    sockets.push(ws);
    const waiting = new Set<string>();
    let opened = 0;
    ws.on('open', () => {
      for (let k = 0; k < count; k++) {
        const i = first + k * addresses;
        const route = Object.fromEntries(new URLSearchParams(floodQuery(i % distinct)));
        for (const key of ['amountIn', 'amountOut'])
          if (key in route) route[key] = Number(route[key]) as never;
        waiting.add(`s${i}`);
        ws.send(JSON.stringify({ type: 'subscribe', id: `s${i}`, route }));
      }
    });
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (!text.startsWith('{"type":"quote"')) {
        if (text.startsWith('{"type":"error"')) {
          waiting.delete(String((JSON.parse(text) as { id: string }).id));
          if (waiting.size === 0) resolve(opened);
        }
        return;
      }
      frames++;
      bytes += data.length;
      envelopeBytes += text.indexOf(RESULT) + RESULT.length + 1;
      const id = /"id":"([^"]+)"/.exec(text)![1]!;
      if (waiting.delete(id)) {
        opened++;
        if (waiting.size === 0) resolve(opened);
      }
    });
    ws.on('error', () => resolve(opened));
    ws.on('close', () => {
      closed += count;
      resolve(opened);
    });
  });
}

/** v2: per address, its streams PER_SOCKET to a socket. */
async function mainV2(): Promise<{ ok: number; failed: number }> {
  const plans: [number, number][] = [];
  for (let a = 0; a < Math.min(addresses, streams); a++) {
    const mine = Math.ceil((streams - a) / addresses);
    for (let k = 0; k < mine; k += PER_SOCKET)
      plans.push([a + k * addresses, Math.min(PER_SOCKET, mine - k)]);
  }
  let next = 0;
  let ok = 0;
  const lanes = Array.from({ length: Math.min(IN_FLIGHT, plans.length) }, async () => {
    while (next < plans.length) {
      const [first, count] = plans[next++]!;
      const opened = await openV2(first, count);
      ok += opened;
    }
  });
  await Promise.all(lanes);
  return { ok, failed: streams - ok };
}

async function main(): Promise<void> {
  if (v2) {
    const { ok, failed } = await mainV2();
    process.stdout.write(`${JSON.stringify({ open: ok, failed })}\n`);
    return listen();
  }
  let next = 0;
  let ok = 0;
  let failed = 0;
  const lanes = Array.from({ length: Math.min(IN_FLIGHT, streams) }, async () => {
    while (next < streams) {
      if (await open(next++)) ok++;
      else failed++;
    }
  });
  await Promise.all(lanes);
  process.stdout.write(`${JSON.stringify({ open: ok, failed })}\n`);
  listen();
}

function listen(): void {
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'reset') {
      frames = 0;
      bytes = 0;
      envelopeBytes = 0;
      since = performance.now();
    } else if (line === 'report') {
      const ms = performance.now() - since;
      process.stdout.write(`${JSON.stringify({ frames, bytes, envelopeBytes, ms, closed })}\n`);
    }
  });
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
