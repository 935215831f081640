import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** A REST answer: status and JSON text. */
export interface RestReply {
  readonly status: number;
  readonly body: string;
}

/** What a mock venue implements: REST routes and what to do with a socket's frames. */
export interface MockVenueHandlers {
  rest?(url: URL): RestReply | undefined;
  onConnection?(socket: WebSocket, path: string): void;
  onMessage(socket: WebSocket, text: string): void;
}

/** A local venue: node http + ws on 127.0.0.1, random port. */
export interface MockVenue {
  readonly port: number;
  readonly http: string;
  readonly ws: string;
  /** Frames received from clients, in order. */
  readonly received: string[];
  readonly sockets: Set<WebSocket>;
  /** Drop every open socket without a close handshake (what a network failure looks like). */
  dropAll(): void;
  close(): Promise<void>;
}

/** Start a mock venue speaking `handlers`' protocol. */
export async function startMockVenue(handlers: MockVenueHandlers): Promise<MockVenue> {
  const received: string[] = [];
  const sockets = new Set<WebSocket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const reply = handlers.rest?.(url) ?? {
      status: 404,
      body: JSON.stringify({ error: `no mock route ${url.pathname}` }),
    };
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(reply.body);
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
    socket.on('message', (data) => {
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Buffer.concat(data instanceof ArrayBuffer ? [Buffer.from(data)] : data).toString('utf8');
      received.push(text);
      handlers.onMessage(socket, text);
    });
    handlers.onConnection?.(socket, req.url ?? '/');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    http: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}`,
    received,
    sockets,
    dropAll: () => {
      for (const s of sockets) s.terminate();
    },
    close: async () => {
      for (const s of sockets) s.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Send frames one per macrotask, as a venue would across network reads; stops if the socket closes. */
export async function sendPaced(socket: WebSocket, frames: readonly string[], everyMs = 0): Promise<void> {
  for (const frame of frames) {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(frame);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
