import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Debian's haproxy (apt-get install haproxy; .ci/run installs it). */
export const HAPROXY = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';

/** A real HAProxy on 127.0.0.1 in front of the API replicas. */
export interface TestHaproxy {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * The load balancer of docs/operations-fleet.md (deploy/haproxy.cfg is the same configuration
 * with the compose service names): round robin, a TCP check every 500 ms (a replica is out after
 * two failed checks), idempotent requests that met a dead connection retried on the other
 * replica, the client's address in x-forwarded-for (replacing whatever the client sent), and
 * x-served-by naming the replica that answered.
 */
export function haproxyConfig(port: number, servers: readonly { name: string; address: string }[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  retries 2',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  http-request set-header x-forwarded-for %[src]',
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    '  http-response set-header x-served-by %s',
    ...servers.map((s) => `  server ${s.name} ${s.address} check inter 500 fall 2 rise 2`),
    '',
  ].join('\n');
}

export async function startHaproxy(
  dir: string,
  servers: readonly { name: string; address: string }[],
): Promise<TestHaproxy> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(cfg, haproxyConfig(port, servers));
    const child = spawn(HAPROXY, ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    if (await listening(child, port)) {
      return {
        url: `http://127.0.0.1:${port}`,
        port,
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await exited;
        },
      };
    }
    child.kill('SIGKILL');
    if (attempt >= 4) throw new Error(`${HAPROXY} did not start (is haproxy installed?): ${err}`);
  }
}

async function listening(child: ChildProcess, port: number): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    const open = await new Promise<boolean>((resolve) => {
      const s = createConnection({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
