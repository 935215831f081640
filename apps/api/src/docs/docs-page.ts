import type { OpenAPIObject } from '@nestjs/swagger';

interface ParamLike {
  name?: string;
  in?: string;
  required?: boolean;
  description?: string;
  schema?: { type?: string; enum?: unknown[]; default?: unknown };
}

interface OperationLike {
  summary?: string;
  parameters?: ParamLike[];
  responses?: Record<string, { description?: string }>;
}

/** A plain HTML rendering of the OpenAPI document: endpoints, parameters and statuses. */
export function renderDocsPage(doc: OpenAPIObject): string {
  const sections: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item as Record<string, unknown>)) {
      if (!['get', 'post'].includes(method)) continue;
      const op = raw as OperationLike;
      const rows = (op.parameters ?? [])
        .map((p) => {
          const type = p.schema?.enum !== undefined ? p.schema.enum.join(' | ') : (p.schema?.type ?? '');
          const dflt = p.schema?.default === undefined ? '' : JSON.stringify(p.schema.default);
          return `<tr><td><code>${esc(p.name ?? '')}</code></td><td>${esc(p.in ?? '')}</td><td>${esc(type)}</td><td>${p.required === true ? 'yes' : ''}</td><td>${esc(dflt)}</td><td>${esc(p.description ?? '')}</td></tr>`;
        })
        .join('');
      const statuses = Object.entries(op.responses ?? {})
        .map(([code, r]) => `<li><b>${esc(code)}</b> ${esc(r.description ?? '')}</li>`)
        .join('');
      sections.push(
        `<section><h2><code>${method.toUpperCase()} ${esc(path)}</code></h2><p>${esc(op.summary ?? '')}</p>` +
          (rows === ''
            ? ''
            : `<table><tr><th>name</th><th>in</th><th>type</th><th>required</th><th>default</th><th>notes</th></tr>${rows}</table>`) +
          `<ul>${statuses}</ul></section>`,
      );
    }
  }
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}</style>
</head><body><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1><p>${esc(doc.info.description ?? '')}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a>. WebSocket: <code>GET /stream/route</code> (see docs/api.md).</p>
${sections.join('\n')}</body></html>`;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
