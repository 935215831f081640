/**
 * The browser side of /docs, built to a classic script the page inlines (scripts/build.mjs):
 * Swagger UI over the OpenAPI document (a JSON block in the page), its try-it console aimed at this
 * server, and the live stream console, a plain WebSocket to this server that prints a summary of
 * each frame.
 */
import type { RouteResult, StreamErrorFrame } from '@app/client';

/** The options of Swagger UI this page sets (swagger-ui-dist ships no types). */
interface SwaggerOptions {
  spec: unknown;
  dom_id: string;
  deepLinking: boolean;
  validatorUrl: null;
  displayRequestDuration: boolean;
  defaultModelsExpandDepth: number;
  docExpansion: 'list' | 'full' | 'none';
  tryItOutEnabled: boolean;
  supportedSubmitMethods: string[];
}
/** Swagger UI's bundle, inlined in the page before this script, defines the global. */
declare function SwaggerUIBundle(options: SwaggerOptions): unknown;

declare global {
  interface Window {
    ui: unknown;
  }
}

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

window.ui = SwaggerUIBundle({
  spec: JSON.parse(byId('openapi-document').textContent ?? ''),
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
  tryItOutEnabled: false,
  supportedSubmitMethods: ['get', 'post'],
});

let ws: WebSocket | null = null;
const log = byId('stream-log');
const host = location.host;
byId('stream-host').textContent = host;

function line(t: string): void {
  log.textContent += `${t}\n`;
  log.scrollTop = log.scrollHeight;
}

/** One line per frame: an error frame as it came, a route frame as its gist. */
function summary(data: string): string {
  const f = JSON.parse(data) as RouteResult | StreamErrorFrame;
  if ('error' in f) return `error frame ${data}`;
  const why = f.unroutableReason ? ` (${f.unroutableReason})` : '';
  const at = new Date().toISOString().slice(11, 23);
  return `${at} ${f.from}->${f.to} in ${f.amountIn} out ${f.amountOut}${why} requestId ${f.requestId}`;
}

byId('stream-form').addEventListener('submit', (e) => {
  e.preventDefault();
  if (ws) ws.close();
  const proto = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const url = `${proto}${host}/stream/route?${byId<HTMLInputElement>('stream-query').value}`;
  line(`connecting ${url}`);
  const socket = new WebSocket(url);
  ws = socket;
  socket.onmessage = (m: MessageEvent<string>) => line(summary(m.data));
  socket.onclose = (c) => {
    line(`closed ${c.code} ${c.reason}`);
    ws = null;
  };
});
byId('stream-close').addEventListener('click', () => {
  if (ws) ws.close(1000, 'bye');
});
