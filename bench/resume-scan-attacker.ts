/**
 * The resume-scan bench's attacker, in a process of its own:
 *   node dist/bench/resume-scan-attacker.js <port> <sockets> <resume|plain>
 * `sockets` routestream.v2 sockets (10 an address, as the default per-address cap allows), each
 * subscribing once a second (the sustained rate a socket is allowed: 60 subscribes a minute) and
 * unsubscribing as soon as it is answered, so it never holds more than one stream. `resume` names
 * a random streamId in each subscribe (a lookup in the stream ledger that can only end
 * unknown_stream); `plain` names none (the same subscribes without the lookup). Prints
 * {"ready":n} once every socket has its welcome; on the stdin line `reset` it starts counting
 * afresh, on `report` prints {"sent","answered","errors","codes","p50Ms","p99Ms","maxMs","ms"}: the
 * subscribes sent, those answered `subscribed` and their subscribe-to-subscribed times.
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { quantile } from './bench-row';
import { floodAddress, floodQuery } from './stream-flood-queries';

const [port, socketCount, mode] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
if (!Number.isInteger(port) || !Number.isInteger(socketCount) || (mode !== 'resume' && mode !== 'plain'))
  throw new Error('usage: resume-scan-attacker <port> <sockets> <resume|plain>');

const route = Object.fromEntries(new URLSearchParams(floodQuery(0))) as Record<string, unknown>;
route.amountIn = Number(route.amountIn);

let sent = 0;
let answered = 0;
let errors = 0;
/** The error codes received, by code. */
let codes: Record<string, number> = {};
let times: number[] = [];
let since = performance.now();

function attack(a: number): Promise<void> {
  return new Promise((ready, failed) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream`, 'routestream.v2', {
      localAddress: floodAddress(Math.floor(a / 10)),
    });
    const asked = new Map<string, number>();
    let n = 0;
    ws.once('error', failed);
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString()) as { type: string; id?: string; code?: string };
      if (m.type === 'welcome') {
        ready();
        // Spread the sockets' subscribes over the second.
        setTimeout(() => setInterval(subscribe, 1000), Math.random() * 1000);
      } else if (m.type === 'subscribed' && m.id !== undefined) {
        const t0 = asked.get(m.id);
        asked.delete(m.id);
        if (t0 !== undefined) times.push(performance.now() - t0);
        answered++;
        ws.send(JSON.stringify({ type: 'unsubscribe', id: m.id }));
      } else if (m.type === 'error') {
        errors++;
        codes[m.code ?? '?'] = (codes[m.code ?? '?'] ?? 0) + 1;
      }
    });
    function subscribe(): void {
      if (ws.readyState !== WebSocket.OPEN) return;
      const id = `r${n++}`;
      const resume = mode === 'resume' ? { resume: { streamId: randomUUID(), seq: 1 } } : {};
      asked.set(id, performance.now());
      sent++;
      ws.send(JSON.stringify({ type: 'subscribe', id, route, ...resume }));
    }
  });
}

async function main(): Promise<void> {
  await Promise.all(Array.from({ length: socketCount }, (_, a) => attack(a)));
  process.stdout.write(`${JSON.stringify({ ready: socketCount })}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'reset') {
      [sent, answered, errors, times, codes, since] = [0, 0, 0, [], {}, performance.now()];
    } else if (line === 'report') {
      const sorted = [...times].sort((x, y) => x - y);
      const at = (q: number): number => (sorted.length === 0 ? 0 : quantile(sorted, q));
      const ms = performance.now() - since;
      const report = {
        sent,
        answered,
        errors,
        codes,
        p50Ms: at(0.5),
        p99Ms: at(0.99),
        maxMs: sorted.at(-1) ?? 0,
        ms,
      };
      process.stdout.write(`${JSON.stringify(report)}\n`);
    }
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
