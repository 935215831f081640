/**
 * The hostile bench's attacker, in a process of its own:
 *   node dist/bench/hostile-attacker.js <port> <stalled sockets> <addresses> <stream clients>
 * Holds <stalled sockets> connections that sent half a request head, spread over <addresses>
 * loopback addresses (127.0.1.1, ...) so each stays within the per-IP budget, and opens another as
 * soon as one is answered or closed; meanwhile <stream clients> open the stream and send the
 * largest message it allows, over and over (each from its own address, at most 5 opens a second as
 * the default rate limit would allow). Prints {"ready":true} once every stalled socket is
 * open; on SIGTERM prints its counts as one JSON line and exits.
 */
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import { SERVER_DEFAULTS } from '@app/config';

const [port, stalled, addresses, streamClients] = process.argv.slice(2).map(Number) as [
  number,
  number,
  number,
  number,
];
const MESSAGE = Buffer.alloc(1024, 0x5b);
let open = 0;
let reopened = 0;
let messages = 0;
let stopping = false;
let ready = false;

function stall(i: number): void {
  const socket: Socket = connect({ port, host: '127.0.0.1', localAddress: `127.0.1.${1 + (i % addresses)}` });
  let connected = false;
  socket.on('connect', () => {
    connected = true;
    open++;
    socket.write('GET /health HTTP/1.1\r\nHost: b\r\nX-Stalled: ');
    if (open === stalled && !ready) {
      ready = true;
      process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
    }
  });
  socket.on('data', () => socket.destroy());
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (connected) open--;
    if (stopping) return;
    reopened++;
    stall(i);
  });
}

function streamLoop(i: number): void {
  if (stopping) return;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/stream/route?from=USDT&to=BTC&amountIn=1&bridges=`, {
    localAddress: `127.0.2.${1 + (i % 200)}`,
  });
  ws.on('error', () => undefined);
  ws.once('message', () => {
    ws.send(MESSAGE);
    messages++;
  });
  // Each client reopens as often as the default RATE_LIMIT_RPS lets one address do.
  ws.on('close', () => setTimeout(() => streamLoop(i), 1000 / SERVER_DEFAULTS.rateLimitRps));
}

for (let i = 0; i < stalled; i++) stall(i);
for (let i = 0; i < streamClients; i++) streamLoop(i);
process.on('SIGTERM', () => {
  stopping = true;
  process.stdout.write(`${JSON.stringify({ open, reopened, messages })}\n`);
  process.exit(0);
});
