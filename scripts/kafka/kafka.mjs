#!/usr/bin/env node
// A real KRaft Kafka without Docker: Kafka 3.9.1 jars from Maven Central (cached), formatted and
// started on loopback; one node by default, or a cluster of KAFKA_NODES nodes (each a broker and a
// controller voter). See docs/operations-log.md, docs/operations-fleet.md and ../shared/notes/kafka.md.
//
//   node scripts/kafka/kafka.mjs start        # idempotent; last line: KAFKA_BROKERS=127.0.0.1:<port>[,...]
//   node scripts/kafka/kafka.mjs stop         # clean stop (SIGTERM, then SIGKILL after a timeout); data kept
//   node scripts/kafka/kafka.mjs reset        # stop, then wipe the data directory
//   node scripts/kafka/kafka.mjs status
//   node scripts/kafka/kafka.mjs jars         # fetch the jars (once); last line: KAFKA_JARS=<dir>
//                                             # (scripts/docker/images.sh builds its Kafka image from them)
//   node scripts/kafka/kafka.mjs kill <node>  # SIGKILL one node (1..KAFKA_NODES); `start` brings it back
//
// Environment: KAFKA_DATA_DIR (default <repo>/.kafka), KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT
// (port + 1), KAFKA_NODES (1; node i of a cluster listens on KAFKA_PORT + 2(i-1) and controls on the
// next port, its data in <data dir>/node-<i>), KAFKA_CACHE_DIR (~/.cache/route-service/kafka-3.9.1),
// KAFKA_START_TIMEOUT_MS (90000), KAFKA_NUM_PARTITIONS (4), KAFKA_HEAP (512m), KAFKA_PROPS (extra
// server.properties, `key=value,key=value`: a test cluster compresses its failure timeouts with it).
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureJars } from './jars.mjs';

const KAFKA_VERSION = '3.9.1';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = process.env;
const port = Number(env.KAFKA_PORT ?? 9092);
const controllerPort = Number(env.KAFKA_CONTROLLER_PORT ?? port + 1);
const nodeCount = Number(env.KAFKA_NODES ?? 1);
const dataDir = resolve(env.KAFKA_DATA_DIR ?? join(repoRoot, '.kafka'));
const cacheDir = resolve(
  env.KAFKA_CACHE_DIR ?? join(homedir(), '.cache', 'route-service', `kafka-${KAFKA_VERSION}`),
);
/** Where the jars are; set from ensureJars() (each download fills a directory of its own). */
let jarDir = join(cacheDir, 'libs');
const startTimeoutMs = Number(env.KAFKA_START_TIMEOUT_MS ?? 90_000);
const numPartitions = Number(env.KAFKA_NUM_PARTITIONS ?? 4);
const heap = env.KAFKA_HEAP ?? '512m';
const extraProps = Object.fromEntries(
  (env.KAFKA_PROPS ?? '')
    .split(',')
    .map((kv) => kv.trim())
    .filter((kv) => kv !== '')
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);

/**
 * The nodes: one (the data directory is the node's, as before clusters existed), or KAFKA_NODES
 * of them, node i on port + 2(i-1) and its controller on the next port, data in node-<i>.
 */
const nodes = Array.from({ length: nodeCount }, (_, i) => {
  const dir = nodeCount === 1 ? dataDir : join(dataDir, `node-${i + 1}`);
  const p = port + 2 * i;
  return {
    id: i + 1,
    port: p,
    controllerPort: nodeCount === 1 ? controllerPort : p + 1,
    dir,
    pidFile: join(dir, 'broker.pid'),
    brokerLog: join(dir, 'broker.log'),
    logDirs: join(dir, 'data'),
  };
});
const brokersLine = () => `KAFKA_BROKERS=${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`;
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
  ['KAFKA_NODES', nodeCount],
]) {
  if (!Number.isInteger(value) || value <= 0)
    fail(`${name} must be a positive integer, got '${String(value)}'`);
}

function writeConfig(node) {
  mkdirSync(node.logDirs, { recursive: true });
  const voters = nodes.map((n) => `${n.id}@127.0.0.1:${n.controllerPort}`).join(',');
  const replicas = String(Math.min(3, nodeCount));
  const props = {
    'process.roles': 'broker,controller',
    'node.id': String(node.id),
    'controller.quorum.voters': voters,
    'controller.listener.names': 'CONTROLLER',
    listeners: `PLAINTEXT://127.0.0.1:${node.port},CONTROLLER://127.0.0.1:${node.controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${node.port}`,
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'log.dirs': node.logDirs,
    'num.partitions': String(numPartitions),
    // Consumer group offsets (the ingestors' shard group) survive a node lost in a cluster.
    'offsets.topic.replication.factor': replicas,
    'offsets.topic.num.partitions': '1',
    'transaction.state.log.replication.factor': replicas,
    'transaction.state.log.min.isr': String(Math.min(2, nodeCount)),
    'group.initial.rebalance.delay.ms': '0',
    'auto.create.topics.enable': 'false',
    'log.cleaner.backoff.ms': '5000',
    ...extraProps,
  };
  writeFileSync(
    join(node.dir, 'server.properties'),
    Object.entries(props)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n',
  );
  writeFileSync(
    join(node.dir, 'log4j.properties'),
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

function java(node, args) {
  return [
    `-Xms${heap.endsWith('m') && Number.parseInt(heap, 10) < 256 ? heap : '256m'}`,
    `-Xmx${heap}`,
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-Djava.awt.headless=true',
    `-Dlog4j.configuration=file:${join(node.dir, 'log4j.properties')}`,
    '-cp',
    `${jarDir}/*`,
    ...args,
  ];
}

/**
 * One cluster id for every node (a 22-char base64url id, like kafka-storage random-uuid). Never one
 * starting with '-', as Kafka's own ids never do: the storage tool would read it as an option (1 in
 * 64 starts failed so: "argument --cluster-id/-t: expected one argument").
 */
function clusterId() {
  const file = join(dataDir, 'cluster-id');
  const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (kept !== '' && !kept.startsWith('-')) return kept;
  let id = '-';
  while (id.startsWith('-'))
    id = Buffer.from(Array.from({ length: 16 }, () => Math.floor(Math.random() * 256)))
      .toString('base64url')
      .slice(0, 22);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${id}\n`);
  return id;
}

function format(node) {
  if (existsSync(join(node.logDirs, 'meta.properties'))) return;
  const id = clusterId();
  say(`formatting ${node.logDirs} (cluster ${id}, node ${node.id})`);
  const r = spawnSync(
    'java',
    java(node, ['kafka.tools.StorageTool', 'format', '-t', id, '-c', join(node.dir, 'server.properties')]),
    { encoding: 'utf8' },
  );
  if (r.status !== 0) fail(`storage format failed:\n${r.stdout}\n${r.stderr}`);
}

function readPid(node) {
  if (!existsSync(node.pidFile)) return null;
  const pid = Number(readFileSync(node.pidFile, 'utf8').trim());
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

function portOpen(p) {
  return new Promise((res) => {
    const s = createConnection({ host: '127.0.0.1', port: p }, () => {
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

async function running(node) {
  const pid = readPid(node);
  return pid !== null && alive(pid) && (await portOpen(node.port));
}

/** Start every node that is not running (all at once: a cluster's quorum forms only with a majority up). */
async function start() {
  const todo = [];
  for (const node of nodes) {
    if (await running(node)) {
      say(`node ${node.id} already running (pid ${readPid(node)})`);
      continue;
    }
    if (await portOpen(node.port))
      fail(`port ${node.port} is already taken by another process; set KAFKA_PORT`);
    todo.push(node);
  }
  if (todo.length > 0) {
    jarDir = ensureJars(cacheDir, KAFKA_VERSION, say, fail);
    for (const node of todo) {
      mkdirSync(node.dir, { recursive: true });
      writeConfig(node);
      format(node);
    }
    const started = todo.map(spawnNode);
    const deadline = Date.now() + startTimeoutMs;
    for (const s of started) await waitStarted(s, deadline);
  }
  console.log(brokersLine());
}

function spawnNode(node) {
  const logStart = existsSync(node.brokerLog) ? statSync(node.brokerLog).size : 0;
  const out = openSync(node.brokerLog, 'a');
  const child = spawn('java', java(node, ['kafka.Kafka', join(node.dir, 'server.properties')]), {
    detached: true,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  // Our own dead child stays a zombie (kill(pid, 0) succeeds), so watch its exit event instead.
  const s = { node, child, logStart, exited: false };
  child.on('exit', () => (s.exited = true));
  child.unref();
  writeFileSync(node.pidFile, `${child.pid}\n`);
  say(
    `node ${node.id} started pid ${child.pid}; waiting up to ${startTimeoutMs} ms (log: ${node.brokerLog})`,
  );
  return s;
}

async function waitStarted(s, deadline) {
  const { node, child, logStart } = s;
  while (Date.now() < deadline) {
    if (s.exited) fail(`node ${node.id} exited during start-up; last log lines:\n${tail(node, logStart)}`);
    const text = readFileSync(node.brokerLog, 'utf8').slice(logStart);
    if (text.includes('Kafka Server started') && (await portOpen(node.port))) return;
    await sleep(200);
  }
  try {
    process.kill(child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  fail(`node ${node.id} not ready after ${startTimeoutMs} ms; last log lines:\n${tail(node, logStart)}`);
}

function tail(node, from) {
  if (!existsSync(node.brokerLog)) return '(no log)';
  return readFileSync(node.brokerLog, 'utf8').slice(from).split('\n').slice(-30).join('\n');
}

async function stopNode(node) {
  const pid = readPid(node);
  if (pid === null || !alive(pid)) {
    rmSync(node.pidFile, { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) {
    say(`node ${node.id} (pid ${pid}) did not stop within 30 s; killing`);
    process.kill(pid, 'SIGKILL');
    while (alive(pid)) await sleep(50);
  }
  rmSync(node.pidFile, { force: true });
  say(`stopped node ${node.id} (pid ${pid})`);
  return true;
}

async function stop() {
  // In parallel: the last nodes of a cluster wait for a quorum to shut down cleanly.
  const stopped = await Promise.all(nodes.map(stopNode));
  if (!stopped.some(Boolean)) say('not running');
}

async function kill(id) {
  const node = nodes.find((n) => String(n.id) === id);
  if (node === undefined) fail(`kill: no node '${id ?? ''}' (1..${nodeCount})`);
  const pid = readPid(node);
  if (pid === null || !alive(pid)) fail(`node ${node.id} is not running`);
  process.kill(pid, 'SIGKILL');
  while (alive(pid)) await sleep(50);
  say(`killed node ${node.id} (pid ${pid})`);
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
    jarDir = ensureJars(cacheDir, KAFKA_VERSION, say, fail);
    console.log(`KAFKA_JARS=${jarDir}`);
    break;
  case 'kill':
    await kill(process.argv[3]);
    break;
  case 'status': {
    const up = [];
    for (const node of nodes) if (await running(node)) up.push(node);
    const all = up.length === nodes.length;
    console.log(
      all
        ? `running pid ${up.map((n) => readPid(n)).join(',')} ${brokersLine()}`
        : up.length === 0
          ? 'stopped'
          : `partly running: nodes ${up.map((n) => n.id).join(',')} of ${nodes.length}`,
    );
    process.exitCode = all ? 0 : 3;
    break;
  }
  default:
    fail(`usage: kafka.mjs start|stop|reset|status|jars|kill <node> (got '${command ?? ''}')`);
}
