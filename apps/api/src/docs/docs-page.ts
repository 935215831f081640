import { escapeHtml, inlineScript, scriptJson } from '@app/html';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { JsonObject } from './json-schema';
import { STREAM_CLOSES } from './asyncapi';
import { browserScript } from '../explorer/page-script';

/**
 * The /docs page: Swagger UI (swagger-ui-dist, inlined) over the OpenAPI document, with its try-it
 * console aimed at this server, and the stream described from the AsyncAPI document beside it,
 * with a small live console. One self-contained response: every endpoint shares the per-IP rate
 * limit, so the page makes no request of its own besides the ones its reader sends; nothing is
 * fetched from anywhere else (no CDN, no fonts, no validator badge). The page's own script (Swagger
 * UI's start-up and the stream console) is apps/api/src/browser/docs.ts, as built; it reads the
 * OpenAPI document from a JSON block of the page.
 */
export function renderDocsPage(openapi: JsonObject, asyncapi: JsonObject): string {
  const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
  const css = readFileSync(join(dist, 'swagger-ui.css'), 'utf8');
  const bundle = readFileSync(join(dist, 'swagger-ui-bundle.js'), 'utf8');
  const info = openapi.info as { title: string; version: string };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(info.title)}: API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<style>${css}</style>
<style>${PAGE_CSS}</style>
</head><body>
<header class="top"><b>${escapeHtml(info.title)}</b> <small>${escapeHtml(info.version)}</small>
<nav><a href="#http">HTTP API</a> <a href="#stream">Stream (WebSocket)</a> <a href="/openapi.json">openapi.json</a> <a href="/asyncapi.json">asyncapi.json</a></nav></header>
<main>
<section id="http"><div id="swagger-ui"></div></section>
${streamSection(asyncapi)}
</main>
<script>${inlineScript(bundle)}</script>
<script type="application/json" id="openapi-document">${scriptJson(openapi)}</script>
<script>${browserScript('docs')}</script>
</body></html>`;
}

function streamSection(asyncapi: JsonObject): string {
  const channel = (asyncapi.channels as Record<string, JsonObject>).routeStream as JsonObject;
  const query = ((channel.bindings as JsonObject).ws as JsonObject).query as JsonObject;
  const required = new Set(query.required as string[]);
  const rows = Object.entries(query.properties as Record<string, JsonObject>)
    .map(([name, s]) => {
      const dflt = s.default === undefined ? '' : JSON.stringify(s.default);
      return `<tr><td><code>${escapeHtml(name)}</code></td><td>${required.has(name) ? 'yes' : ''}</td><td>${escapeHtml(dflt)}</td><td>${escapeHtml(typeof s.description === 'string' ? s.description : '')}</td></tr>`;
    })
    .join('');
  const closes = STREAM_CLOSES.map(
    (c) =>
      `<tr><td>${c.code}</td><td><code>${escapeHtml(c.reason || '(none)')}</code></td><td>${c.errorFrame ? 'yes' : 'no'}</td><td>${escapeHtml(c.when)}</td></tr>`,
  ).join('');
  const paragraphs = String(channel.description)
    .split('\n\n')
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('');
  return `<section id="stream" class="stream">
<h2>Stream: <code>GET /stream/route</code> (WebSocket)</h2>
${paragraphs}
<h3>Frames</h3>
<p>Route frames are bare <b>RouteResult</b> objects (schema under Schemas above). Error frames are
<code>{"error": string, "code": 1008 | 1013, "reason": string}</code>, sent just before the close they name.
With <code>envelope=v2</code> (as the console below asks by default) each frame is a v2 <code>quote</code>
message instead: seq, tick, skipped states, cause and validUntil around the same result (the
<code>stream</code> channel of the AsyncAPI document).</p>
<h3>Connection parameters (query string)</h3>
<table><tr><th>name</th><th>required</th><th>default</th><th>rule</th></tr>${rows}</table>
<h3>Close codes</h3>
<table><tr><th>code</th><th>reason</th><th>error frame first</th><th>when</th></tr>${closes}</table>
<h3>Try it</h3>
<form id="stream-form"><code>ws://${'<span id="stream-host"></span>'}/stream/route?</code><input id="stream-query" size="60" value="from=USDT&amp;to=BTC&amp;amountIn=1000&amp;envelope=v2">
<button type="submit" id="stream-open">Connect</button> <button type="button" id="stream-close">Disconnect</button></form>
<pre id="stream-log" aria-live="polite"></pre>
</section>`;
}

const PAGE_CSS = `body{margin:0;background:#fafafa;font-family:system-ui,sans-serif}
.top{padding:.6rem 1.2rem;background:#1b1b1b;color:#fff}.top small{color:#bbb}
.top nav{display:inline;margin-left:2rem}.top a{color:#9cf;margin-right:1rem}
.stream{max-width:1460px;margin:0 auto 4rem;padding:0 20px}
.stream table{border-collapse:collapse;margin:.5rem 0}.stream td,.stream th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
#stream-log{background:#222;color:#eee;padding:.6rem;max-height:20rem;overflow:auto;white-space:pre-wrap}`;
