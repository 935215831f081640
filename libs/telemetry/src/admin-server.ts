import { errorMessage } from '@app/retry';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** The admin endpoint: GET /metrics in the Prometheus text format, nothing else. */
export interface AdminServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A plain node:http server on its own port (METRICS_PORT, on METRICS_HOST: loopback unless set),
 * outside the public API's gate: scrapes are not rate limited and never take the public port's
 * budget. Only GET /metrics answers; anything else is 404.
 */
export async function startAdminServer(registry: Registry, port: number, host: string): Promise<AdminServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":"not found: the admin port serves GET /metrics"}');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (e: unknown) =>
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: `metrics failed: ${errorMessage(e)}` })),
    );
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    port: bound,
    url: `http://${shown}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
