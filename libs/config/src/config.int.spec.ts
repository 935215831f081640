import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, HTTP_LIMIT_DEFAULTS, loadConfig } from './index';

const cwd = mkdtempSync(join(tmpdir(), 'config-spec-'));
writeFileSync(join(cwd, 'events.jsonl'), '');

function issues(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e.issues.map((i) => i.key);
    throw e;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig('start', [], {}, cwd);
    expect(c.server).toEqual({
      port: 3000,
      host: '::',
      rateLimitRps: 5,
      streamMaxPerIp: 10,
      heartbeatMs: 15_000,
      resumeWindowMs: 120_000,
      trustedProxies: [],
      routing: { staleBookMs: 10_000, stalenessPenaltyBps: 1, defaultTakerFeeRate: 0.001 },
      journalStrict: false,
      http: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        sendTimeoutMs: 30_000,
        connectionsPerIp: 64,
        connectionsMax: 10_000,
      },
      journalResponses: false,
      journalQueueBytes: 64 * 1024 * 1024,
      streamBudget: { framesPerSec: 5_000, bytesPerSec: 16 * 1024 * 1024 },
      redisUrl: null,
      receipts: {
        attach: false,
        keyFile: null,
        origin: 'route-service/main',
        checkpointIntervalMs: 2_000,
        mergeDelayMs: 10_000,
        prefixEveryLeaves: 1_048_576,
      },
    });
    expect(c.server.http).toEqual(HTTP_LIMIT_DEFAULTS);
    expect(c.log).toEqual({
      kafkaBrokers: null,
      dataDir: join(cwd, '.data'),
      topicPrefix: '',
      retention: { maxAgeMs: 7 * 86_400_000, maxBytes: 512 * 1024 * 1024, segmentBytes: 64 * 1024 * 1024 },
      replication: { factor: 1, minInsync: 1 },
    });
    expect(c.console).toEqual({ level: 'info', format: 'auto', summaryEveryMs: 60_000 });
    expect(c.metrics).toBeNull();
    expect(c.replay).toBeNull();
    expect(c.nowMs).toBeNull();
    expect(Object.isFrozen(c.server.routing)).toBe(true);
  });

  it('reads flags in both spellings and the environment', () => {
    const c = loadConfig(
      'start',
      [
        '--replay',
        'events.jsonl',
        '--speed=max',
        '--now',
        '1700000000000',
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--retention-ms=0',
        '--retention-bytes',
        '1073741824',
      ],
      {
        LOG_RETENTION_MS: '5',
        LOG_SEGMENT_BYTES: '8388608',
        KAFKA_BROKERS: 'localhost:9092,kafka:29092',
        DATA_DIR: 'd',
        RATE_LIMIT_RPS: '100',
        STALENESS_PENALTY_BPS: '2.5',
        TRUSTED_PROXY: '10.0.0.1',
      },
      cwd,
    );
    expect(c.replay).toEqual({ path: join(cwd, 'events.jsonl'), speed: 'max', loop: false });
    expect(c.nowMs).toBe(1_700_000_000_000);
    expect(c.server.port).toBe(0);
    expect(c.server.host).toBe('127.0.0.1');
    expect(c.server.rateLimitRps).toBe(100);
    expect(c.server.routing.stalenessPenaltyBps).toBe(2.5);
    expect(c.server.trustedProxies).toEqual(['10.0.0.1']);
    expect(loadConfig('api', [], { JOURNAL_STRICT: 'true' }, cwd).server.journalStrict).toBe(true);
    // The fleet's settings (docs/operations-fleet.md), and what they refuse.
    const fleet = { KAFKA_BROKERS: 'k:9092', KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' };
    expect(loadConfig('api', [], { ...fleet, REDIS_URL: 'redis://r:6379' }, cwd).server.redisUrl).toBe(
      'redis://r:6379',
    );
    expect(loadConfig('api', [], fleet, cwd).log.replication).toEqual({ factor: 3, minInsync: 2 });
    expect(loadConfig('ingestor', [], { ...fleet, INGESTOR_GROUP: 'g' }, cwd).shards).toEqual({
      group: 'g',
      sessionMs: 10_000,
    });
    expect(() => loadConfig('api', [], { REDIS_URL: 'http://r' }, cwd)).toThrow(
      /REDIS_URL: must be redis:\/\/host:port/,
    );
    expect(() => loadConfig('api', [], { KAFKA_MIN_INSYNC_REPLICAS: '2' }, cwd)).toThrow(
      /must not exceed KAFKA_REPLICATION_FACTOR/,
    );
    expect(() => loadConfig('ingestor', [], { INGESTOR_GROUP: 'g' }, cwd)).toThrow(
      /INGESTOR_GROUP: needs KAFKA_BROKERS/,
    );
    expect(c.log).toEqual({
      kafkaBrokers: ['localhost:9092', 'kafka:29092'],
      dataDir: join(cwd, 'd'),
      topicPrefix: '',
      retention: { maxAgeMs: null, maxBytes: 1_073_741_824, segmentBytes: 8_388_608 },
      replication: { factor: 1, minInsync: 1 },
    });
    expect(loadConfig('ingestor', [], { LOG_RETENTION_MS: '3600000' }, cwd).log.retention?.maxAgeMs).toBe(
      3_600_000,
    );
    expect(issues(() => loadConfig('api', ['--retention-bytes', '1000'], {}, cwd))).toEqual([
      '--retention-bytes',
    ]);
    expect(loadConfig('api', [], { TOPIC_PREFIX: 'tenant-a.v2' }, cwd).log.topicPrefix).toBe('tenant-a.v2');
  });

  it('lists every bad key at once', () => {
    const keys = issues(() =>
      loadConfig(
        'start',
        ['--bogus', '1', '--port', 'abc', '--speed', '0', '--replay', 'missing.jsonl', '--now', '-5'],
        {
          RATE_LIMIT_RPS: '0',
          STALE_BOOK_MS: '1e3',
          DEFAULT_TAKER_FEE_RATE: '0x1',
          HEARTBEAT_MS: 'fast',
          KAFKA_BROKERS: 'nohost',
          TRUSTED_PROXY: 'proxy.local',
          JOURNAL_STRICT: 'yes',
          TOPIC_PREFIX: 'my topics',
        },
        cwd,
      ),
    );
    expect(keys.sort()).toEqual(
      [
        '--bogus',
        '--now',
        '--port',
        '--replay',
        '--speed',
        'DEFAULT_TAKER_FEE_RATE',
        'HEARTBEAT_MS',
        'JOURNAL_STRICT',
        'KAFKA_BROKERS',
        'RATE_LIMIT_RPS',
        'STALE_BOOK_MS',
        'TRUSTED_PROXY',
        'TOPIC_PREFIX',
      ].sort(),
    );
  });

  it('reads the HTTP timeouts and budgets, and refuses contradictory ones', () => {
    const c = loadConfig(
      'api',
      [],
      {
        HEADERS_TIMEOUT_MS: '2000',
        REQUEST_TIMEOUT_MS: '4000',
        KEEP_ALIVE_TIMEOUT_MS: '1000',
        SEND_TIMEOUT_MS: '9000',
        CONNECTIONS_MAX_PER_IP: '8',
        CONNECTIONS_MAX: '100',
      },
      cwd,
    );
    expect(c.server.http).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 1000,
      sendTimeoutMs: 9000,
      connectionsPerIp: 8,
      connectionsMax: 100,
    });
    const keys = issues(() =>
      loadConfig(
        'api',
        [],
        {
          HEADERS_TIMEOUT_MS: '5000',
          REQUEST_TIMEOUT_MS: '4000',
          KEEP_ALIVE_TIMEOUT_MS: '0',
          SEND_TIMEOUT_MS: 'soon',
          CONNECTIONS_MAX_PER_IP: '200',
          CONNECTIONS_MAX: '100',
        },
        cwd,
      ),
    );
    expect(keys.sort()).toEqual(
      ['CONNECTIONS_MAX_PER_IP', 'HEADERS_TIMEOUT_MS', 'KEEP_ALIVE_TIMEOUT_MS', 'SEND_TIMEOUT_MS'].sort(),
    );
  });

  it('rejects replay flags in the API process, repeated and valueless flags', () => {
    expect(issues(() => loadConfig('api', ['--replay', 'events.jsonl'], {}, cwd))).toEqual(['--replay']);
    expect(issues(() => loadConfig('api', ['--port', '1', '--port', '2'], {}, cwd))).toEqual(['--port']);
    expect(issues(() => loadConfig('api', ['--now'], {}, cwd))).toEqual(['--now']);
    expect(issues(() => loadConfig('start', ['--speed', '2'], {}, cwd))).toEqual(['--speed']);
  });

  it('the demo (start --replay) has a data directory of its own; --loop needs a paced replay', () => {
    const demo = loadConfig('start', ['--replay', 'events.jsonl', '--speed', '5', '--loop'], {}, cwd);
    expect(demo.replay).toEqual({ path: join(cwd, 'events.jsonl'), speed: 5, loop: true });
    expect(demo.log.dataDir).toBe(join(cwd, '.data-replay'));
    expect(loadConfig('start', [], {}, cwd).log.dataDir).toBe(join(cwd, '.data'));
    // Split processes must share one directory: the ingestor keeps the live default.
    expect(loadConfig('ingestor', ['--replay', 'events.jsonl'], {}, cwd).log.dataDir).toBe(
      join(cwd, '.data'),
    );
    expect(
      issues(() => loadConfig('start', ['--replay', 'events.jsonl', '--speed', 'max', '--loop'], {}, cwd)),
    ).toEqual(['--loop']);
    expect(issues(() => loadConfig('start', ['--loop'], {}, cwd))).toEqual(['--loop']);
    expect(issues(() => loadConfig('start', ['--replay', 'events.jsonl', '--loop=yes'], {}, cwd))).toEqual([
      '--loop',
    ]);
    expect(issues(() => loadConfig('api', ['--loop'], {}, cwd))).toEqual(['--loop']);
  });

  it('reads the console, metrics and journal settings', () => {
    const c = loadConfig(
      'api',
      [],
      {
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
        LOG_SUMMARY_MS: '0',
        METRICS_PORT: '9464',
        JOURNAL_RESPONSES: 'true',
      },
      cwd,
    );
    expect(c.console).toEqual({ level: 'debug', format: 'json', summaryEveryMs: 0 });
    expect(c.metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(c.server.journalResponses).toBe(true);
    const bad = { LOG_LEVEL: 'loud', LOG_FORMAT: 'xml', METRICS_PORT: '-1', JOURNAL_RESPONSES: '1' };
    expect(issues(() => loadConfig('api', [], bad, cwd)).sort()).toEqual(
      ['JOURNAL_RESPONSES', 'LOG_FORMAT', 'LOG_LEVEL', 'METRICS_PORT'].sort(),
    );
  });

  it('reads who signs receipts and whether answers carry them: the origin name, an existing key file, RECEIPTS', () => {
    writeFileSync(join(cwd, 'receipt.pem'), '');
    const env = {
      RECEIPT_ORIGIN_NAME: 'eu-1',
      RECEIPT_KEY_FILE: 'receipt.pem',
      RECEIPTS: 'true',
      CHECKPOINT_INTERVAL_MS: '5000',
      MERGE_DELAY_MS: '60000',
      TLOG_PREFIX_LEAVES: '4096',
    };
    const c = loadConfig('api', [], env, cwd);
    expect(c.server.receipts).toEqual({
      attach: true,
      origin: 'route-service/eu-1',
      keyFile: join(cwd, 'receipt.pem'),
      checkpointIntervalMs: 5_000,
      mergeDelayMs: 60_000,
      prefixEveryLeaves: 4096,
    });
    const bad = {
      RECEIPT_ORIGIN_NAME: 'a b',
      RECEIPT_KEY_FILE: 'no-such.pem',
      RECEIPTS: 'maybe',
      // A promise the service could not keep: a record may wait a whole interval.
      CHECKPOINT_INTERVAL_MS: '5000',
      MERGE_DELAY_MS: '5500',
      TLOG_PREFIX_LEAVES: '0',
    };
    expect(issues(() => loadConfig('api', [], bad, cwd)).sort()).toEqual([
      'MERGE_DELAY_MS',
      'RECEIPTS',
      'RECEIPT_KEY_FILE',
      'RECEIPT_ORIGIN_NAME',
      'TLOG_PREFIX_LEAVES',
    ]);
  });

  it('names the key and the value in the message', () => {
    expect(() => loadConfig('api', ['--port', '70000'], {}, cwd)).toThrow(
      /--port: must be between 0 and 65535, got 70000/,
    );
  });
});
