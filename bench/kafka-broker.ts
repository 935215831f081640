/**
 * Kafka for the scenarios that need it: the brokers of KAFKA_BROKERS when set (the caller's, left
 * alone), else a jar broker of scripts/kafka/kafka.mjs on free ports (BENCH_KAFKA_PORT to pick
 * one) in a temp dir, held by bench/processes.ts from before it starts, so it is stopped and its
 * data removed on success, on failure and on Ctrl-C.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { outputOf } from './child-io';
import { freePort } from './ports';
import { hold, pidStoppable } from './processes';

const ROOT = resolve(__dirname, '..', '..');

export interface BenchKafka {
  /** host:port[,host:port] */
  readonly brokers: string;
  /** Stops the broker this bench started (nothing for KAFKA_BROKERS). */
  close(): Promise<void>;
}

/** KAFKA_BROKERS, or a jar broker of this bench's own for `who` (a scenario name). */
export async function benchKafka(who: string): Promise<BenchKafka> {
  const fromEnv = process.env.KAFKA_BROKERS?.trim();
  if (fromEnv) return { brokers: fromEnv, close: () => Promise.resolve() };
  const dir = mkdtempSync(join(tmpdir(), `bench-${who}-kafka-`));
  const port = Number(process.env.BENCH_KAFKA_PORT ?? 0) || (await freePort());
  const env = {
    ...process.env,
    KAFKA_DATA_DIR: dir,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    KAFKA_HEAP: '512m',
  };
  // Held before the start: a Ctrl-C while kafka.mjs waits for the broker stops the broker too.
  const pid = (): number | null => {
    try {
      return Number(readFileSync(join(dir, 'broker.pid'), 'utf8').trim()) || null;
    } catch {
      return null;
    }
  };
  const close = hold(
    pidStoppable(`jar Kafka broker on 127.0.0.1:${port}`, pid, () =>
      rmSync(dir, { recursive: true, force: true }),
    ),
  );
  try {
    console.error(`${who}: starting a jar Kafka broker on 127.0.0.1:${port} (scripts/kafka, data in ${dir})`);
    const out = await outputOf(
      'kafka.mjs start',
      process.execPath,
      [join(ROOT, 'scripts/kafka/kafka.mjs'), 'start'],
      {
        env,
      },
    );
    const line = out.trim().split('\n').at(-1) ?? '';
    if (!line.startsWith('KAFKA_BROKERS=')) throw new Error(`kafka.mjs start printed no brokers: ${out}`);
    return { brokers: line.slice('KAFKA_BROKERS='.length), close };
  } catch (e) {
    await close();
    throw e;
  }
}
