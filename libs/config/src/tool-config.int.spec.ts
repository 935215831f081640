import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError, Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ConfigError, configOption, loadConfig } from './index';

const cwd = mkdtempSync(join(tmpdir(), 'tool-config-'));
writeFileSync(join(cwd, 'venues.json'), '{}');

/** What the ingestor refuses and a tool has no use for. */
const INGESTOR_ONLY = {
  INGESTOR_GROUP: 'g',
  WRITE_BUFFER_BYTES: '1',
  LOG_LEVEL: 'loud',
};

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e.issues.map((i) => `${i.key}: ${i.problem}`);
    throw e;
  }
  return [];
}

describe('the tools read config sections of their own', () => {
  it('replay reads where the log is, --data-dir winning over DATA_DIR, and nothing of the ingestor', () => {
    const env = { ...INGESTOR_ONLY, DATA_DIR: 'from-env', TOPIC_PREFIX: 't' };
    expect(loadConfig('replay', new Map(), env, cwd).log).toEqual({
      kafkaBrokers: null,
      dataDir: join(cwd, 'from-env'),
      topicPrefix: 't',
      replication: { factor: 1, minInsync: 1 },
    });
    expect(loadConfig('replay', new Map([['data-dir', 'flag']]), env, cwd).log.dataDir).toBe(
      join(cwd, 'flag'),
    );
    expect(problems(() => loadConfig('ingestor', [], INGESTOR_ONLY, cwd))).toHaveLength(3);
    expect(
      problems(() => loadConfig('replay', new Map(), { KAFKA_BROKERS: 'nohost', TOPIC_PREFIX: 'a b' }, cwd)),
    ).toEqual([
      "KAFKA_BROKERS: 'nohost' is not host:port",
      "TOPIC_PREFIX: must be up to 200 of [A-Za-z0-9._-], got 'a b'",
    ]);
  });

  it('venues check reads VENUES_CONFIG only', () => {
    expect(loadConfig('venues', new Map(), { ...INGESTOR_ONLY, KAFKA_BROKERS: 'nohost' }, cwd)).toEqual({
      app: 'venues',
      venuesConfig: null,
    });
    expect(loadConfig('venues', new Map(), { VENUES_CONFIG: 'venues.json' }, cwd).venuesConfig).toBe(
      join(cwd, 'venues.json'),
    );
    expect(problems(() => loadConfig('venues', new Map(), { VENUES_CONFIG: 'missing.json' }, cwd))).toEqual([
      'VENUES_CONFIG: no such file: missing.json',
    ]);
  });

  it("a tool's flags come from the table: placeholder, help, default and bounds", () => {
    const program = new Command('t')
      .exitOverride()
      .configureOutput({ writeOut: () => undefined, writeErr: () => undefined })
      .addOption(configOption('replay', 'data-dir'))
      .addOption(configOption('replay', 'stale-book-ms'))
      .addOption(configOption('replay', 'default-taker-fee-rate'));
    const help = program.helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain('--data-dir <dir>');
    expect(help).toContain('(default: DATA_DIR, else ./.data)');
    expect(help).toContain('--stale-book-ms <ms> freshness cutoff (default: 10000)');
    expect(program.parse([], { from: 'user' }).opts()).toEqual({
      staleBookMs: 10_000,
      defaultTakerFeeRate: 0.001,
    });
    expect(() => program.parse(['--stale-book-ms', '0'], { from: 'user' })).toThrow(CommanderError);
    expect(() => program.parse(['--default-taker-fee-rate', '0.6'], { from: 'user' })).toThrow(
      /must be a number from 0 to 0.5/,
    );
    expect(() => configOption('replay', 'port')).toThrow(/gives no --port to replay/);
  });
});
