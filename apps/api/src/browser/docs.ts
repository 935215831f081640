/**
 * The browser side of /docs, built to a classic script the page inlines (scripts/build.mjs):
 * Swagger UI over the OpenAPI document (a JSON block in the page), its try-it console aimed at this
 * server, and the live stream console, a plain WebSocket to this server that prints a summary of
 * each frame (with the v2 envelope's seq, tick and skipped states when the query asks for it).
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

/** A v2 message on the one-route stream (`envelope=v2`): the envelope around the v1 frame. */
interface V2Message {
  readonly type: string;
  readonly seq?: number;
  readonly tick?: number;
  readonly ticksSkipped?: number;
  readonly validUntil?: number | null;
  readonly cause?: { readonly kind: string };
  readonly result?: RouteResult;
  readonly code?: string;
  readonly message?: string;
}

function gist(f: RouteResult): string {
  const why = f.unroutableReason ? ` (${f.unroutableReason})` : '';
  return `${f.from}->${f.to} in ${f.amountIn} out ${f.amountOut}${why} requestId ${f.requestId}`;
}

/**
 * One line per frame: an error frame as it came, a route frame as its gist; with `envelope=v2`
 * (the default query) also its seq, tick, skipped states, cause and validUntil, so a gap shows.
 */
function summary(data: string): string {
  const f = JSON.parse(data) as RouteResult | StreamErrorFrame | V2Message;
  const at = new Date().toISOString().slice(11, 23);
  if ('error' in f) return `error frame ${data}`;
  if ('type' in f) {
    if (f.type === 'subscribed') return `${at} subscribed streamId ${(f as { streamId?: string }).streamId}`;
    if (f.type !== 'quote' || f.result === undefined) return `${at} ${f.type} ${data}`;
    const until = f.validUntil == null ? 'never' : new Date(f.validUntil).toISOString().slice(11, 23);
    const envelope = `seq ${f.seq} tick ${f.tick} skipped ${f.ticksSkipped} cause ${f.cause?.kind} valid until ${until}`;
    return `${at} ${envelope}: ${gist(f.result)}`;
  }
  return `${at} ${gist(f)}`;
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
