#!/usr/bin/env node
// A real single-node KRaft Kafka broker without Docker: Kafka 3.9.1 jars from Maven Central
// (cached), formatted and started on loopback. See docs/operations-log.md and
// ../shared/notes/kafka.md.
//
//   node scripts/kafka/kafka.mjs start   # idempotent; last line: KAFKA_BROKERS=127.0.0.1:<port>
//   node scripts/kafka/kafka.mjs stop    # clean stop (SIGTERM, then SIGKILL after a timeout); data kept
//   node scripts/kafka/kafka.mjs reset   # stop, then wipe the data directory
//   node scripts/kafka/kafka.mjs status
//   node scripts/kafka/kafka.mjs jars    # fetch the jars (once); last line: KAFKA_JARS=<dir>
//                                        # (scripts/docker/images.sh builds its Kafka image from them)
//
// Environment: KAFKA_DATA_DIR (default <repo>/.kafka), KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT
// (port + 1), KAFKA_CACHE_DIR (~/.cache/route-service/kafka-3.9.1), KAFKA_START_TIMEOUT_MS (90000),
// KAFKA_NUM_PARTITIONS (4), KAFKA_HEAP (512m).
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const KAFKA_VERSION = '3.9.1';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = process.env;
const port = Number(env.KAFKA_PORT ?? 9092);
const controllerPort = Number(env.KAFKA_CONTROLLER_PORT ?? port + 1);
const dataDir = resolve(env.KAFKA_DATA_DIR ?? join(repoRoot, '.kafka'));
const cacheDir = resolve(
  env.KAFKA_CACHE_DIR ?? join(homedir(), '.cache', 'route-service', `kafka-${KAFKA_VERSION}`),
);
/** Where the jars are; set by ensureJars() (each download fills a directory of its own). */
let jarDir = join(cacheDir, 'libs');
const startTimeoutMs = Number(env.KAFKA_START_TIMEOUT_MS ?? 90_000);
const numPartitions = Number(env.KAFKA_NUM_PARTITIONS ?? 4);
const heap = env.KAFKA_HEAP ?? '512m';
const pidFile = join(dataDir, 'broker.pid');
const brokerLog = join(dataDir, 'broker.log');
const logDirs = join(dataDir, 'data');

const say = (msg) => process.stderr.write(`[kafka] ${msg}\n`);
const fail = (msg) => {
  say(`error: ${msg}`);
  process.exit(1);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

for (const [name, value] of [
  ['KAFKA_PORT', port],
  ['KAFKA_CONTROLLER_PORT', controllerPort],
  ['KAFKA_START_TIMEOUT_MS', startTimeoutMs],
  ['KAFKA_NUM_PARTITIONS', numPartitions],
]) {
  if (!Number.isInteger(value) || value <= 0)
    fail(`${name} must be a positive integer, got '${String(value)}'`);
}

function pom() {
  const dep = (g, a, v) =>
    `<dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version></dependency>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>route-service</groupId><artifactId>kafka-runtime</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    ${dep('org.apache.kafka', 'kafka_2.13', KAFKA_VERSION)}
    ${dep('org.slf4j', 'slf4j-reload4j', '1.7.36')}
    ${dep('ch.qos.reload4j', 'reload4j', '1.2.25')}
  </dependencies>
</project>
`;
}

/**
 * Download the broker's runtime jars once; later runs are offline. Concurrent first starts (two
 * test brokers at once) must not share a half-filled folder: each download fills a folder of its
 * own, and `.complete` is then replaced atomically with that folder's name; readers use the folder
 * it names.
 */
function ensureJars() {
  const marker = join(cacheDir, '.complete');
  if (existsSync(marker)) {
    const named = readFileSync(marker, 'utf8').trim();
    // Older caches wrote "<n> jars" and kept the jars in libs/.
    const dir = /^libs[\w.-]*$/.test(named) ? join(cacheDir, named) : join(cacheDir, 'libs');
    if (existsSync(dir)) {
      jarDir = dir;
      return;
    }
  }
  mkdirSync(cacheDir, { recursive: true });
  const dirName = `libs-${process.pid}-${Date.now()}`;
  const dir = join(cacheDir, dirName);
  const pomPath = join(cacheDir, `pom-${process.pid}.xml`);
  writeFileSync(pomPath, pom());
  say(`downloading Kafka ${KAFKA_VERSION} jars from Maven Central into ${dir} (once)`);
  const r = spawnSync(
    'mvn',
    [
      '-B',
      '-q',
      '-Dstyle.color=never',
      '-f',
      pomPath,
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${dir}`,
    ],
    // Maven's output goes to stderr: stdout carries only the script's own lines, whose last one
    // is the KAFKA_BROKERS line callers parse.
    { stdio: ['ignore', process.stderr, 'inherit'] },
  );
  if (r.error) fail(`could not run mvn (is Maven installed?): ${r.error.message}`);
  if (r.status !== 0) fail(`mvn dependency:copy-dependencies exited with ${r.status}`);
  const jars = readdirSync(dir).filter((f) => f.endsWith('.jar'));
  if (!jars.some((j) => j.startsWith('kafka_2.13-'))) fail(`no kafka_2.13 jar in ${dir}`);
  const tmp = `${marker}.${process.pid}`;
  writeFileSync(tmp, `${dirName}\n`);
  renameSync(tmp, marker);
  jarDir = dir;
}

function writeConfig() {
  mkdirSync(logDirs, { recursive: true });
  const props = {
    'process.roles': 'broker,controller',
    'node.id': '1',
    'controller.quorum.voters': `1@127.0.0.1:${controllerPort}`,
    'controller.listener.names': 'CONTROLLER',
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${port}`,
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'log.dirs': logDirs,
    'num.partitions': String(numPartitions),
    'offsets.topic.replication.factor': '1',
    'offsets.topic.num.partitions': '1',
    'transaction.state.log.replication.factor': '1',
    'transaction.state.log.min.isr': '1',
    'group.initial.rebalance.delay.ms': '0',
    'auto.create.topics.enable': 'false',
    'log.cleaner.backoff.ms': '5000',
  };
  writeFileSync(
    join(dataDir, 'server.properties'),
    Object.entries(props)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n',
  );
  writeFileSync(
    join(dataDir, 'log4j.properties'),
    [
      'log4j.rootLogger=INFO, stdout',
      'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
      'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
      'log4j.logger.kafka=INFO',
      'log4j.logger.org.apache.kafka=WARN',
      'log4j.logger.kafka.server.KafkaRaftServer=INFO',
      'log4j.logger.state.change.logger=WARN',
      'log4j.logger.kafka.log.LogCleaner=WARN',
      '',
    ].join('\n'),
  );
}

function java(args, opts) {
  return [
    `-Xms256m`,
    `-Xmx${heap}`,
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-Djava.awt.headless=true',
    `-Dlog4j.configuration=file:${join(dataDir, 'log4j.properties')}`,
    '-cp',
    `${jarDir}/*`,
    ...args,
    ...(opts ?? []),
  ];
}

function format() {
  if (existsSync(join(logDirs, 'meta.properties'))) return;
  // A fixed-format 22-char base64url cluster id (16 random bytes), like kafka-storage random-uuid.
  const clusterId = Buffer.from(Array.from({ length: 16 }, () => Math.floor(Math.random() * 256)))
    .toString('base64url')
    .slice(0, 22);
  say(`formatting ${logDirs} (cluster ${clusterId})`);
  const r = spawnSync(
    'java',
    java(['kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', join(dataDir, 'server.properties')]),
    { encoding: 'utf8' },
  );
  if (r.status !== 0) fail(`storage format failed:\n${r.stdout}\n${r.stderr}`);
}

function readPid() {
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portOpen() {
  return new Promise((res) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => {
      s.destroy();
      res(true);
    });
    s.on('error', () => res(false));
    s.setTimeout(1000, () => {
      s.destroy();
      res(false);
    });
  });
}

async function start() {
  const running = readPid();
  if (running !== null && alive(running) && (await portOpen())) {
    say(`already running (pid ${running})`);
    console.log(`KAFKA_BROKERS=127.0.0.1:${port}`);
    return;
  }
  if (await portOpen()) fail(`port ${port} is already taken by another process; set KAFKA_PORT`);
  ensureJars();
  mkdirSync(dataDir, { recursive: true });
  writeConfig();
  format();
  const logStart = existsSync(brokerLog) ? statSync(brokerLog).size : 0;
  const out = openSync(brokerLog, 'a');
  const child = spawn('java', java(['kafka.Kafka', join(dataDir, 'server.properties')]), {
    detached: true,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  // Our own dead child stays a zombie (kill(pid, 0) succeeds), so watch its exit event instead.
  let exited = false;
  child.on('exit', () => (exited = true));
  child.unref();
  writeFileSync(pidFile, `${child.pid}\n`);
  say(`started pid ${child.pid}; waiting up to ${startTimeoutMs} ms (log: ${brokerLog})`);
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (exited) fail(`broker exited during start-up; last log lines:\n${tail(logStart)}`);
    const text = readFileSync(brokerLog, 'utf8').slice(logStart);
    if (text.includes('Kafka Server started') && (await portOpen())) {
      console.log(`KAFKA_BROKERS=127.0.0.1:${port}`);
      return;
    }
    await sleep(200);
  }
  try {
    process.kill(child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  fail(`broker not ready after ${startTimeoutMs} ms; last log lines:\n${tail(logStart)}`);
}

function tail(from) {
  if (!existsSync(brokerLog)) return '(no log)';
  return readFileSync(brokerLog, 'utf8').slice(from).split('\n').slice(-30).join('\n');
}

async function stop() {
  const pid = readPid();
  if (pid === null || !alive(pid)) {
    say('not running');
    rmSync(pidFile, { force: true });
    return;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) {
    say(`pid ${pid} did not stop within 30 s; killing`);
    process.kill(pid, 'SIGKILL');
    while (alive(pid)) await sleep(50);
  }
  rmSync(pidFile, { force: true });
  say(`stopped pid ${pid}`);
}

async function reset() {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
  say(`wiped ${dataDir}`);
}

const command = process.argv[2];
switch (command) {
  case 'start':
    await start();
    break;
  case 'stop':
    await stop();
    break;
  case 'reset':
    await reset();
    break;
  case 'jars':
    ensureJars();
    console.log(`KAFKA_JARS=${jarDir}`);
    break;
  case 'status': {
    const pid = readPid();
    const up = pid !== null && alive(pid) && (await portOpen());
    console.log(up ? `running pid ${pid} KAFKA_BROKERS=127.0.0.1:${port}` : 'stopped');
    process.exitCode = up ? 0 : 3;
    break;
  }
  default:
    fail(`usage: kafka.mjs start|stop|reset|status|jars (got '${command ?? ''}')`);
}
