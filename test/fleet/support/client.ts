import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';

/** One HTTP answer, the body as text. */
export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

const agents = new Map<string, Agent>();

/** Keep-alive connections from one loopback address (127.0.0.0/8: every address is this machine). */
function agentFrom(address: string): Agent {
  let a = agents.get(address);
  if (a === undefined) {
    a = new Agent({ keepAlive: true, localAddress: address, maxSockets: 4 });
    agents.set(address, a);
  }
  return a;
}

/** Close every kept-alive connection (end of a test). */
export function closeAgents(): void {
  for (const a of agents.values()) a.destroy();
  agents.clear();
}

/** GET `base + path` from the client address `from`. Never rejects: a failed connection is status 0. */
export function get(base: string, path: string, from = '127.0.0.1', timeoutMs = 15_000): Promise<Reply> {
  return new Promise((resolve) => {
    const req = request(base + path, { agent: agentFrom(from), timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', () => resolve({ status: 0, headers: {}, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: e.message }));
    req.end();
  });
}

/** A stream socket from `from`; resolves once it opened (with its first frame) or was refused. */
export interface StreamClient {
  readonly ws: WebSocket;
  readonly frames: string[];
  /** The close code and reason once closed. */
  closed: { code: number; reason: string } | null;
  readonly servedBy: string | undefined;
}

export function openStream(base: string, query: string, from: string): Promise<StreamClient> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/stream/route?${query}`, { localAddress: from });
    const client: { -readonly [K in keyof StreamClient]: StreamClient[K] } = {
      ws,
      frames: [],
      closed: null,
      servedBy: undefined,
    };
    ws.on('upgrade', (res) => (client.servedBy = res.headers['x-served-by'] as string | undefined));
    ws.on('message', (d: Buffer) => {
      const text = d.toString('utf8');
      client.frames.push(text);
      // A route frame: open. An error frame: the close follows, and resolves.
      if (client.frames.length === 1 && !text.startsWith('{"error"')) resolve(client);
    });
    ws.on('close', (code, reason) => {
      client.closed = { code, reason: reason.toString('utf8') };
      resolve(client);
    });
    ws.on('unexpected-response', (_req, res) => {
      client.closed = { code: res.statusCode ?? 0, reason: 'refused before the upgrade' };
      resolve(client);
    });
    ws.on('error', () => {
      client.closed ??= { code: 0, reason: 'socket error' };
      resolve(client);
    });
  });
}
