import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** ../shared/data/captures beside the repository root (never copied into the repo). */
export const CAPTURES_DIR = resolve(__dirname, '../..', '../shared/data/captures');
export const CAPTURES_PRESENT = existsSync(CAPTURES_DIR);
export const CAPTURES_MISSING_MESSAGE = `venue captures not found at ${CAPTURES_DIR}: these tests need ../shared/data/captures beside the checkout`;
// A developer without the captures sees these suites skipped with a warning; in CI (.ci/run sets
// CI=true) their absence fails the run instead of passing it with the venue tests silently skipped.
if (!CAPTURES_PRESENT && process.env.CI === 'true') throw new Error(CAPTURES_MISSING_MESSAGE);

/** One line of cryptofeed's v1 text capture. */
export type V1Line =
  | { readonly t: 'connect'; readonly url: string; readonly ts: number }
  | { readonly t: 'send'; readonly url: string; readonly ts: number; readonly data: string }
  | { readonly t: 'recv'; readonly ts: number; readonly data: string }
  | { readonly t: 'http'; readonly url: string; readonly ts: number; readonly data: string }
  | { readonly t: 'configuration'; readonly data: string };

/** Parse a cryptofeed v1 capture file (cryptofeed-2021-2022/): see the captures README for the grammar. */
export function readV1(file: string): V1Line[] {
  const text = readFileSync(resolve(CAPTURES_DIR, 'cryptofeed-2021-2022', file), 'utf8');
  const out: V1Line[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let m: RegExpMatchArray | null;
    if (line.startsWith('configuration: ')) out.push({ t: 'configuration', data: line.slice(15) });
    else if ((m = /^(\S+) <-> ([\d.]+)$/.exec(line)))
      out.push({ t: 'connect', url: m[1]!, ts: Number(m[2]) });
    else if ((m = /^(\S+) <- ([\d.]+): (.*)$/s.exec(line)))
      out.push({ t: 'send', url: m[1]!, ts: Number(m[2]), data: m[3]! });
    else if ((m = /^(\S+) -> ([\d.]+): (.*)$/s.exec(line)))
      out.push({ t: 'http', url: m[1]!, ts: Number(m[2]), data: m[3]! });
    else if ((m = /^([\d.]+): (.*)$/s.exec(line))) out.push({ t: 'recv', ts: Number(m[1]), data: m[2]! });
    else throw new Error(`${file}: unrecognised capture line '${line.slice(0, 80)}'`);
  }
  return out;
}

/** One record of the 2026 JSON Lines capture. */
export interface JsonlRecord {
  readonly t: 'http' | 'connect' | 'send' | 'recv';
  readonly conn: string;
  readonly ts: number;
  readonly data: string;
  readonly url?: string;
  readonly addr?: string;
}

/** Read a gzipped cryptofeed JSON Lines capture (cryptofeed-2026-08-09/), header line dropped. */
export function readJsonl(file: string): JsonlRecord[] {
  const text = gunzipSync(readFileSync(resolve(CAPTURES_DIR, 'cryptofeed-2026-08-09', file))).toString(
    'utf8',
  );
  const out: JsonlRecord[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const value = JSON.parse(line) as Record<string, unknown>;
    if (value.t === undefined) continue;
    out.push(value as unknown as JsonlRecord);
  }
  return out;
}
