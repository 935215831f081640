import type { ResumePoint } from './client-messages';

/** What `/stream/route?...&envelope=v2[&resume=<streamId>.<seq>]` asks beyond the route. */
export type EnvelopeQuery =
  | { readonly ok: true; readonly route: string; readonly v2: boolean; readonly resume: ResumePoint | null }
  | { readonly ok: false; readonly error: string };

const RESUME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(0|[1-9][0-9]{0,14})$/;

/**
 * Split the envelope options off the one-route stream's query. Without `envelope` the query is
 * handed on untouched (the v1 stream, byte for byte as before); `resume` needs `envelope=v2`.
 */
export function envelopeQuery(raw: string): EnvelopeQuery {
  let envelope: string | null = null;
  let resume: string | null = null;
  const rest: string[] = [];
  for (const part of raw.split('&')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (name !== 'envelope' && name !== 'resume') {
      rest.push(part);
      continue;
    }
    if ((name === 'envelope' ? envelope : resume) !== null)
      return { ok: false, error: `parameter '${name}' must not be repeated` };
    if (name === 'envelope') envelope = value;
    else resume = value;
  }
  if (envelope === null && resume === null) return { ok: true, route: raw, v2: false, resume: null };
  if (envelope !== 'v2') return { ok: false, error: "envelope must be 'v2' (the routestream.v2 envelope)" };
  if (resume === null) return { ok: true, route: rest.join('&'), v2: true, resume: null };
  const m = RESUME.exec(resume);
  if (m === null)
    return { ok: false, error: 'resume must be <streamId>.<seq>: a streamId this server sent and a seq' };
  return { ok: true, route: rest.join('&'), v2: true, resume: { streamId: m[1]!, seq: Number(m[2]) } };
}
