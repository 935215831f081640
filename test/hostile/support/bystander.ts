import { request } from 'node:http';
import { expect } from 'vitest';
import { assertDocumented } from '../../api/support/contract';

/** A well-behaved client's address: another loopback address than the attacker's 127.0.0.1. */
export const BYSTANDER = '127.0.0.2';
const ASKS = ['/health', '/route?from=USDT&to=BTC&amountIn=100.1&bridges='] as const;

interface Asked {
  readonly path: string;
  readonly status: number;
  readonly startedAt: number;
}

/**
 * Run `attack` while a well-behaved client on BYSTANDER keeps asking /health and /route, each
 * request on a new connection. Afterwards: every one of its answers was 200, and both endpoints answered
 * requests sent while the attack ran. Returns what the attack returned.
 */
export async function whileBystanderAsks<T>(port: number, attack: () => Promise<T>): Promise<T> {
  const asked: Asked[] = [];
  const undocumented: string[] = [];
  let stop = false;
  let attackEndedAt = Infinity;
  const startedAt = performance.now();
  // One loop per endpoint, so each has a request out from the attack's first moment.
  const loops = ASKS.map(async (path) => {
    while (!stop) {
      const t = performance.now();
      asked.push({ path, status: await ask(port, path, undocumented), startedAt: t });
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  let result: T;
  try {
    result = await attack();
  } finally {
    attackEndedAt = performance.now();
    // Requests sent during the attack may still be in flight: give them time to be answered.
    const deadline = performance.now() + 15_000;
    while (performance.now() < deadline && !answeredDuring(asked, startedAt, attackEndedAt))
      await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await Promise.all(loops);
  }
  expect(asked.filter((a) => a.status !== 200)).toEqual([]);
  expect(undocumented).toEqual([]);
  expect(answeredDuring(asked, startedAt, attackEndedAt)).toBe(true);
  return result;
}

function answeredDuring(asked: readonly Asked[], from: number, to: number): boolean {
  return ASKS.every((path) => asked.some((a) => a.path === path && a.startedAt >= from && a.startedAt <= to));
}

/** One request; its answer is checked against the OpenAPI document (a mismatch goes to `undocumented`). */
function ask(port: number, path: string, undocumented: string[]): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, localAddress: BYSTANDER, agent: false, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          try {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
            assertDocumented('GET', path, status, headers, JSON.parse(Buffer.concat(chunks).toString()));
          } catch (e) {
            undocumented.push((e as Error).message);
          }
          resolve(status);
        });
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}
