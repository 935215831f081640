/**
 * The product as a user starts it, for the `http` scenario: `node --max-semi-space-size=64
 * bin/route-service.mjs start --replay <recording> --speed max --port 0` (what `npm start --
 * --replay replay-data --speed max` runs) in the checkout `root`, with a user's environment, the
 * rate limit raised and a DATA_DIR of its own; and the recording with its order rules removed.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MARKET_RULE_FIELDS } from '@app/events';
import { lineFrom } from './child-io';
import { spawnHeld, stopHeld } from './processes';

export interface Service {
  readonly label: string;
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 180_000;

/** Start the service of checkout `root` on `recording`; resolves once it listens (the recording loaded). */
export async function startService(
  label: string,
  root: string,
  recording: string,
  dataDir: string,
  /** More of the user's environment (RECEIPTS=true for the receipts scenario). */
  env: Record<string, string> = {},
): Promise<Service> {
  const child = spawnHeld(
    `service ${label}`,
    process.execPath,
    [
      '--max-semi-space-size=64',
      join(root, 'bin/route-service.mjs'),
      'start',
      '--replay',
      recording,
      '--speed',
      'max',
      '--port',
      '0',
    ],
    // A user's shell: no KAFKA_BROKERS, LOG_* or npm_* of the bench's caller.
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        RATE_LIMIT_RPS: '1000000000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
  // JSON lines on a pipe; `listening` carries the port (--port 0).
  const listening = lineFrom(child, (l) => l.includes('"message":"listening"'));
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`${label}: not listening after ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    ).unref(),
  );
  const line = await Promise.race([listening, timeout]).catch((e: Error) => {
    throw new Error(`${e.message}\n${err}`);
  });
  // Its log keeps coming; an undrained pipe would stall the server.
  child.stdout!.resume();
  const port = (JSON.parse(line) as { port: number }).port;
  return {
    label,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => stopHeld(child),
  };
}

/**
 * Copy the *.jsonl of `recording` into `dir` with every market record's order rules (amountStep,
 * minAmount, minCost, maxAmount) set to null; other lines as they are. Returns how many market
 * records had a rule.
 */
export function withoutRules(recording: string, dir: string): number {
  mkdirSync(dir, { recursive: true });
  let ruled = 0;
  for (const name of readdirSync(recording).filter((n) => n.endsWith('.jsonl'))) {
    const lines = readFileSync(join(recording, name), 'utf8').split('\n');
    const out = lines.map((line) => {
      if (!line.includes('"type":"market"')) return line;
      const record = JSON.parse(line) as Record<string, unknown>;
      if (MARKET_RULE_FIELDS.some((f) => record[f] !== undefined && record[f] !== null)) ruled++;
      for (const f of MARKET_RULE_FIELDS) record[f] = null;
      return JSON.stringify(record);
    });
    writeFileSync(join(dir, name), out.join('\n'));
  }
  return ruled;
}
