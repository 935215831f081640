/**
 * The stream flood's clients, in a process of their own:
 *   node dist/bench/stream-flood-clients.js <port> <streams> <addresses> <distinct requests>
 * Opens <streams> streams over <distinct requests> (stream i asks request i mod distinct), spread
 * over <addresses> loopback addresses 127.0.3.1, ... (stream i from address i mod addresses), a
 * few hundred handshakes at a time. Prints {"open":n,"failed":m} once each has its first frame (or
 * failed). Then reads commands on stdin, one a line: `reset` zeroes the frame and byte counts,
 * `report` prints {"frames","bytes","ms","closed"} since the last reset.
 */
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { floodAddress, floodQuery } from './stream-flood-queries';

const [port, streams, addresses, distinct] = process.argv.slice(2).map(Number) as [
  number,
  number,
  number,
  number,
];
const IN_FLIGHT = 200;

let frames = 0;
let bytes = 0;
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

async function main(): Promise<void> {
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
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'reset') {
      frames = 0;
      bytes = 0;
      since = performance.now();
    } else if (line === 'report') {
      const ms = performance.now() - since;
      process.stdout.write(`${JSON.stringify({ frames, bytes, ms, closed })}\n`);
    }
  });
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
