import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SERVER_DEFAULTS } from '@app/config';

const PACKAGE_NAME = 'route-quoting-service';

/** package.json's version, found above this file (in the sources, dist/ and the image alike). */
function packageVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return pkg.version;
    }
    if (dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${__dirname}`);
  }
}

/** Version of the documents: the service's, package.json's (CHANGELOG.md says what each one changed). */
export const API_VERSION = packageVersion();

/** The overview both documents open with (OpenAPI renders it as Markdown). */
export const API_OVERVIEW = [
  'Quotes conversions between two assets over the cached level-2 order books of many venues, and',
  'serves those books. Beta: results are computed from the books the service has cached, never',
  'executed.',
  '',
  '**Every endpoint is public**, IPv4-only (other clients get 403 `{"error":"ipv4_only"}`) and',
  'shares one per-IP rate limit: a fixed 1000 ms window opened by the first request, RATE_LIMIT_RPS',
  `requests per window (${SERVER_DEFAULTS.rateLimitRps} by default; every request counts, including errors and stream upgrades).`,
  'Every answer that passed the IPv4 rule carries `x-ratelimit-limit`, `x-ratelimit-remaining`,',
  '`x-ratelimit-reset` and `x-request-id`; over the limit the answer is 429 with `retry-after`.',
  '',
  'Requests are checked in this order: IPv4 rule (403), rate limit (429), parameters (400, 414 for',
  'a query string over 4096 characters), market existence (404 `no_market`, 501',
  '`exact_out_multi_hop_unsupported`, both with a full RouteResult), then routing: every other',
  'outcome is 200, unroutable ones with an `unroutableReason`. Every error body is',
  '`{"error": string}`.',
  '',
  'The WebSocket stream `GET /stream/route` is described in AsyncAPI 3.0 at `/asyncapi.json` and',
  'on the `/docs` page.',
].join('\n');
