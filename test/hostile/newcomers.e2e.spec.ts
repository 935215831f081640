import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';
import { askedBetween, startGoodClient, worstMs } from './support/good-client';
import { exchange, get } from './support/raw';
import { spawnServer, type SpawnedServer } from './support/server';

// Issue 22: 165 addresses holding 64 connections each (POST bodies trickled inside every timeout)
// filled CONNECTIONS_MAX (10,000), and every newcomer got 429 for as long as they held. Now, when
// the server is full, the connection that has held its slot longest while sending least is reset
// and the newcomer takes its place. Limits at their defaults (10,000 in all, 64 per address).
const ADDRESSES = 165;
const PER_ADDRESS = 64;
const TRICKLE_MS = 2000;
const HEAD =
  'POST /route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';

let s: SpawnedServer;
beforeAll(async () => {
  s = await spawnServer();
});
afterAll(() => s.stop());

/** The attack: every address holds its 64 connections, each trickling its body a byte every 2 s. */
function trickleAttack(port: number): { stop(): void; open(): number; resets(): number } {
  const sockets = new Set<Socket>();
  let stopped = false;
  let resets = 0;
  const hold = (address: string): void => {
    if (stopped) return;
    const socket = connect({ port, host: '127.0.0.1', localAddress: address });
    socket.setNoDelay(true);
    socket.on('connect', () => {
      sockets.add(socket);
      socket.write(`${HEAD}{`);
    });
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      resets++;
      // Like a real attacker: whatever the server cut, open another in its place.
      setTimeout(() => hold(address), 1000);
    });
  };
  for (let a = 0; a < ADDRESSES; a++)
    for (let i = 0; i < PER_ADDRESS; i++) hold(`127.0.${10 + Math.floor(a / 250)}.${1 + (a % 250)}`);
  // A tenth of the sockets every tenth of the period, so the attacker's own writes come evenly.
  let turn = 0;
  const trickle = setInterval(() => {
    const slice = turn++ % 10;
    let i = 0;
    for (const socket of sockets) if (i++ % 10 === slice && !socket.destroyed) socket.write(' ');
  }, TRICKLE_MS / 10);
  return {
    stop: () => {
      stopped = true;
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    },
    open: () => sockets.size,
    resets: () => resets,
  };
}

describe(`${ADDRESSES} addresses x ${PER_ADDRESS} trickled bodies (issue 22)`, () => {
  it('fill CONNECTIONS_MAX; a newcomer from another address still gets /health within 1 s, a good client all along', async () => {
    const good = startGoodClient(s.port, '127.0.0.2', 100);
    const attack = trickleAttack(s.port);
    try {
      await waitFor('the server to be full', () => s.openSockets() >= 10_000, 60_000);
      // Held a second, the attackers' connections are the ones a newcomer may displace.
      await new Promise((r) => setTimeout(r, 1200));
      const from = performance.now();
      const newcomers: { status: number; ms: number }[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const a = await exchange(s.port, get('/health'), {
          localAddress: `127.0.20.${1 + i}`,
          timeoutMs: 5000,
        });
        newcomers.push({ status: a.status, ms: performance.now() - t0 });
        await new Promise((r) => setTimeout(r, 100));
      }
      const seen = await good.stop();
      const during = askedBetween(seen, from);
      console.log(
        `newcomers: /health in ${newcomers.map((n) => n.ms.toFixed(0)).join(', ')} ms (status ${newcomers.map((n) => n.status).join(', ')}); attack holding ${attack.open()} sockets, ${attack.resets()} displaced so far; good client worst ${worstMs(during).toFixed(0)} ms over ${during.length} requests`,
      );
      expect(newcomers.map((n) => n.status)).toEqual([200, 200, 200, 200, 200]);
      for (const n of newcomers) expect(n.ms).toBeLessThan(1000);
      // The attack really held the server full: its connections were displaced, not refused.
      expect(attack.open()).toBeGreaterThan(9_000);
      expect(during.length).toBeGreaterThan(0);
      expect(during.filter((a) => a.status !== 200)).toEqual([]);
      expect(seen.streamOpen).toBe(true);
    } finally {
      attack.stop();
    }
    await waitFor('the attack sockets to close', () => s.openSockets() < 100, 30_000);
  }, 120_000);
});
