import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from './free-port';

/** Debian's redis-server (apt-get install redis-server; .ci/run installs it). */
export const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';

/** A real redis-server on 127.0.0.1, no persistence; stop and start keep its port. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** SIGKILL (no clean shutdown): clients see the connection drop. */
  kill(): Promise<void>;
  /** Start again on the same port (empty: no persistence). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Answers PING with +PONG within `timeoutMs`. */
export function redisAnswers(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let text = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      text += d.toString();
      if (text.includes('\r\n')) done(text.startsWith('+PONG'));
    });
  });
}

export async function startRedis(): Promise<TestRedis> {
  let child: ChildProcess | null = null;
  let port = 0;
  const launch = async (): Promise<boolean> => {
    const c = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let exited = false;
    c.once('exit', () => (exited = true));
    c.once('error', () => (exited = true));
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && !exited;) {
      if (await redisAnswers(port, 500)) {
        child = c;
        return true;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    c.kill('SIGKILL');
    return false;
  };
  const gone = async (c: ChildProcess | null, signal: NodeJS.Signals): Promise<void> => {
    if (c === null || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
  // A port found free may be taken before redis binds it: try another.
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    if (await launch()) break;
    if (attempt >= 4) throw new Error(`${REDIS_SERVER} did not start (is redis-server installed?)`);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => gone(child, 'SIGKILL'),
    start: async () => {
      if (!(await launch())) throw new Error(`redis-server did not start again on port ${port}`);
    },
    stop: () => gone(child, 'SIGTERM'),
  };
}
