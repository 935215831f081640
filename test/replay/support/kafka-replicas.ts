import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { T0 } from '@test/support';
import { ROOT, startApp, type App } from '../../storage/support/processes';

/** The Kafka log two or more API replicas share: its brokers and topic prefix. */
export interface SharedKafka {
  readonly brokers: string;
  readonly topicPrefix: string;
}

/**
 * A built API process on the shared Kafka log, its data in `dataDir` and `env` added; pushed onto
 * `apps` (for the suite's teardown) before it listens. Returns its base URL.
 */
export async function startKafkaApi(
  kafka: SharedKafka,
  dataDir: string,
  apps: App[],
  env: Record<string, string> = {},
): Promise<string> {
  const app = startApp('apps/api/src/main.js', ['--port', '0', '--host', '127.0.0.1', '--now', String(T0)], {
    KAFKA_BROKERS: kafka.brokers,
    TOPIC_PREFIX: kafka.topicPrefix,
    DATA_DIR: dataDir,
    LOG_FORMAT: 'json',
    RATE_LIMIT_RPS: '1000000',
    ...env,
  });
  apps.push(app);
  const port = (await app.waitFor(/"message":"listening","port":(\d+)/, 90_000))[1];
  return `http://127.0.0.1:${port}`;
}

/**
 * `route-service replay <args>` as an auditor on another machine runs it: in an empty directory
 * holding only `files`, with the brokers and the prefix and nothing else in its environment.
 */
export function auditorReplay(
  kafka: SharedKafka,
  args: readonly string[],
  options: { readonly files?: Record<string, string>; readonly stdin?: string } = {},
): Promise<{ code: number | null; out: string; err: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'auditor-'));
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(cwd, name), text);
  const child = spawn(process.execPath, [join(ROOT, 'bin/route-service.mjs'), 'replay', ...args], {
    cwd,
    env: { PATH: process.env.PATH, KAFKA_BROKERS: kafka.brokers, TOPIC_PREFIX: kafka.topicPrefix },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.end(options.stdin ?? '');
  return new Promise((done) =>
    child.once('exit', (code) => {
      rmSync(cwd, { recursive: true, force: true });
      done({ code, out, err });
    }),
  );
}
