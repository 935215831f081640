#!/usr/bin/env node
// The container's health checks (Dockerfile HEALTHCHECK, docker-compose.yml; docs/deploy.md):
//
//   node scripts/healthcheck.mjs api [port]   exit 0 when GET http://127.0.0.1:<port>/ready
//                                             answers 200 (libs/config's --port default)
//   node scripts/healthcheck.mjs ingestor     exit 0 once the event log the ingestor writes
//                                             (KAFKA_BROKERS, else DATA_DIR) holds book records
//
// Exit 1 otherwise, with one line on stderr saying why (`docker inspect` shows it).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TIMEOUT_MS = 4000;
const [what = 'api', arg] = process.argv.slice(2);

function fail(why) {
  process.stderr.write(`unhealthy: ${why}\n`);
  process.exit(1);
}

async function api(port) {
  const res = await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const body = await res.text();
  if (res.status !== 200) fail(`GET /ready answered ${res.status} ${body}`);
  process.stdout.write(`${body}\n`);
}

/** The API's port when none is given: the default of libs/config's table (dist/). */
function defaultPort() {
  const require = createRequire(import.meta.url);
  return require(resolve(ROOT, 'dist/libs/config/src/index.js')).defaultOf('--port');
}

/** The ingestor's own configuration and log adapter (dist/), so the check reads what it writes. */
async function ingestor() {
  const require = createRequire(import.meta.url);
  const { loadConfig } = require(resolve(ROOT, 'dist/libs/config/src/index.js'));
  const { openEventLog } = require(resolve(ROOT, 'dist/libs/event-log/src/index.js'));
  const config = loadConfig('ingestor', [], process.env, process.cwd());
  const log = openEventLog({
    kafkaBrokers: config.log.kafkaBrokers,
    dataDir: config.log.dataDir,
    topicPrefix: config.log.topicPrefix,
    clientId: 'route-healthcheck',
  });
  const timer = setTimeout(() => fail(`the event log did not answer in ${TIMEOUT_MS} ms`), TIMEOUT_MS);
  try {
    const ends = await log.highWatermarks('books');
    const records = ends.reduce((a, b) => a + b, 0);
    if (records === 0) fail('no book record in the event log yet');
    process.stdout.write(`${records} book records in the event log\n`);
  } finally {
    clearTimeout(timer);
    await log.close().catch(() => undefined);
  }
}

try {
  if (what === 'api') await api(Number(arg ?? defaultPort()));
  else if (what === 'ingestor') await ingestor();
  else fail(`usage: healthcheck.mjs api [port] | ingestor (got '${what}')`);
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
