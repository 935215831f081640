import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ENV_HELP, FLAG_HELP, FLAGS_OF, loadConfig } from '@app/config';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/route-service.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `route-service <args>` as a user runs it (the built apps; npm test builds dist/ first). */
function cli(args: readonly string[], input?: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: tmp,
    encoding: 'utf8',
    input: input ?? '',
    env: { ...process.env, KAFKA_BROKERS: undefined, DATA_DIR: undefined },
    timeout: 20_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const REPLAY_COMMANDS = [
  'quote',
  'stream',
  'explain',
  'audit',
  'verify',
  'compare',
  'decay',
  'record',
  'backtest',
  'generate',
  'import',
];

describe('route-service: one command line with help everywhere', () => {
  it('lists its commands with --help and help, and names an unknown or missing command', () => {
    const help = cli(['--help']);
    expect(help.code).toBe(0);
    for (const c of ['start', 'api', 'ingestor', 'replay'])
      expect(help.out).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(cli(['help']).out).toBe(help.out);
    const unknown = cli(['bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown command 'bogus'/);
    expect(cli([]).code).toBe(2);
    expect(cli(['--version']).out).toMatch(/^route-service \d+\.\d+\.\d+\n$/);
  });

  it('start, api and ingestor: --help lists every flag and every environment variable with its default', () => {
    for (const app of ['start', 'api', 'ingestor'] as const) {
      const r = cli([app, '--help']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: route-service ${app} \\[options\\]`));
      for (const f of FLAG_HELP) {
        const shown = r.out.includes(`--${f.name} ${f.value}`);
        expect(shown, `${app} --${f.name}`).toBe(FLAGS_OF[app].includes(f.name));
        if (shown) expect(r.out.replace(/\s+/g, ' ')).toContain(`(default: ${f.defaultText})`);
      }
      for (const e of ENV_HELP) {
        const line = new RegExp(
          `^  ${e.name} +${e.defaultText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `,
          'm',
        );
        expect(line.test(r.out), `${app} ${e.name}`).toBe(e.apps.includes(app));
      }
      expect(cli([app, '--version']).out).toMatch(/^route-service \d+\.\d+\.\d+\n$/);
      expect(cli(['help', app]).out).toBe(r.out);
    }
  });

  it("the help's defaults are the ones loadConfig applies", () => {
    const c = loadConfig('start', [], {}, tmp);
    const shown = (name: string): string => ENV_HELP.find((e) => e.name === name)!.defaultText;
    expect(String(c.server.port)).toBe(FLAG_HELP.find((f) => f.name === 'port')!.defaultText);
    expect(c.server.host).toBe(FLAG_HELP.find((f) => f.name === 'host')!.defaultText);
    expect(String(c.server.rateLimitRps)).toBe(shown('RATE_LIMIT_RPS'));
    expect(String(c.server.streamMaxPerIp)).toBe(shown('STREAM_MAX_PER_IP'));
    expect(String(c.server.heartbeatMs)).toBe(shown('HEARTBEAT_MS'));
    expect(String(c.server.routing.staleBookMs)).toBe(shown('STALE_BOOK_MS'));
    expect(String(c.server.routing.stalenessPenaltyBps)).toBe(shown('STALENESS_PENALTY_BPS'));
    expect(String(c.server.routing.defaultTakerFeeRate)).toBe(shown('DEFAULT_TAKER_FEE_RATE'));
    expect(String(c.server.journalStrict)).toBe(shown('JOURNAL_STRICT'));
    expect(c.log.dataDir).toBe(resolve(tmp, shown('DATA_DIR')));
  });

  it('start, api and ingestor: an unknown flag and a bad value are both named, exit 2, nothing started', () => {
    const r = cli(['start', '--bogus', '1', '--port', 'x', '--speed', '2']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--bogus: unknown flag');
    expect(r.err).toContain("--port: must be an integer, got 'x'");
    expect(r.err).toContain('--speed: only applies with --replay');
    expect(r.err).toContain('--help lists the flags');
    expect(cli(['api', '--replay', 'x']).err).toMatch(/--replay: unknown flag/);
    const ingestor = cli(['ingestor', '--replay', join(tmp, 'missing.jsonl')]);
    expect(ingestor.code).toBe(2);
    expect(ingestor.err).toMatch(/--replay: no such file or directory/);
    expect(existsSync(join(tmp, 'missing.jsonl'))).toBe(false);
  });

  it('npm start -- --help is the start help (the npm scripts are aliases)', () => {
    const r = spawnSync('npm', ['start', '--silent', '--', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Usage: route-service start [options]');
    expect(r.stdout).toContain('JOURNAL_STRICT');
  });

  it('replay: --help on the program and on every subcommand, --version, help <command>', () => {
    const top = cli(['replay', '--help']);
    expect(top.code).toBe(0);
    for (const c of REPLAY_COMMANDS) {
      expect(top.out).toMatch(new RegExp(`^  ${c} `, 'm'));
      const r = cli(['replay', c, '--help']);
      expect(r.code, `${c}: ${r.err}`).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: route-service replay ${c} `));
      expect(r.out).toMatch(/^Options:/m);
      expect(r.out).toMatch(/Example/);
      expect(cli(['replay', 'help', c]).out).toBe(r.out);
    }
    expect(cli(['replay', '--version']).out).toMatch(
      /^route-service \d+\.\d+\.\d+ \(solver \d+\.\d+\.\d+\)\n$/,
    );
  });

  it('replay: unknown flags and commands, missing and bad values are usage errors (exit 2)', () => {
    const cases: [string[], RegExp][] = [
      [['replay', 'quote', 'x', '--bogus'], /unknown option '--bogus'/],
      [['replay', 'nope'], /unknown command 'nope'/],
      [['replay', 'audit', '--from', '1'], /required option '--to <time>' not specified/],
      [
        ['replay', 'audit', '--from', 'yesterday', '--to', '5'],
        /'--from <time>' argument 'yesterday' is invalid/,
      ],
      [['replay', 'audit', '--from', '2026-08-10T12:00:00', '--to', '5'], /ISO 8601 time with a zone/],
      [
        ['replay', 'audit', '--from', '9', '--to', '5', '--data-dir', tmp],
        /--to \(5\) must not be before --from \(9\)/,
      ],
      [['replay', 'quote', 'x', '--occurrence', '0'], /'--occurrence <n>' argument '0' is invalid/],
      [['replay', 'generate', '--out', 'g', '--seed', '-1'], /'--seed <n>' argument '-1' is invalid/],
      [['replay', 'backtest', '--from', '1', '--to', '2'], /required option '--schedule <file>'/],
      [['replay', 'record'], /required option '--out <dir>'/],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
    }
  });

  it('replay: input paths that do not exist are refused and never created', () => {
    const missing = join(tmp, 'nonexistent');
    const cases: [string[], RegExp][] = [
      [['replay', 'quote', 'some-id', '--data-dir', missing], /--data-dir: no event log directory at /],
      [
        ['replay', 'audit', '--from', '0', '--to', '1', '--data-dir', missing],
        /--data-dir: no event log directory/,
      ],
      [
        ['replay', 'record', '--out', join(tmp, 'rec'), '--data-dir', missing],
        /--data-dir: no event log directory/,
      ],
      [
        [
          'replay',
          'backtest',
          '--from',
          '0',
          '--to',
          '1',
          '--schedule',
          join(ROOT, 'replay-data/schedule.example.json'),
          '--data-dir',
          missing,
          '--out',
          join(tmp, 'bt'),
        ],
        /--data-dir: no event log directory/,
      ],
      [
        [
          'replay',
          'backtest',
          '--from',
          '0',
          '--to',
          '1',
          '--schedule',
          join(ROOT, 'replay-data/schedule.example.json'),
          '--events',
          missing,
          '--out',
          join(tmp, 'bt'),
        ],
        /--events: no such file or directory/,
      ],
      [['replay', 'backtest', '--from', '0', '--to', '1', '--schedule', missing], /--schedule: cannot read/],
      // Without --data-dir, DATA_DIR's default ./.data (in the working directory) must exist too.
      [['replay', 'quote', 'some-id'], /DATA_DIR: no event log directory at .*\.data/],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
    }
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(join(tmp, '.data'))).toBe(false);
    expect(existsSync(join(tmp, 'rec'))).toBe(false);
    expect(existsSync(join(tmp, 'bt'))).toBe(false);
  });

  it('replay quote reads requestIds from stdin; an existing but empty log says "not journalled" (exit 3) and stays empty', () => {
    const empty = mkdtempSync(join(tmp, 'empty-'));
    const r = cli(['replay', 'quote', '--data-dir', empty], 'id-1\nid-2\n');
    expect(r.code).toBe(3);
    expect(r.err).toContain('no journal record for requestId "id-1"');
    expect(r.err).toContain('no journal record for requestId "id-2"');
    expect(spawnSync('ls', ['-A', empty], { encoding: 'utf8' }).stdout).toBe('');
  });
});
