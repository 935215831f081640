import { Command, CommanderError } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArgv } from './parse-argv';

const VALUES = ['port', 'host', 'now', 'replay', 'speed'];
const SWITCHES = ['loop'];
const KNOWN = '--port, --host, --now, --replay, --speed, --loop';
const parse = (argv: string[]) => parseArgv(argv, VALUES, SWITCHES);

describe('parseArgv', () => {
  it('reads both spellings, switches, and names every bad argument in order', () => {
    const ok = parse(['--port', '0', '--host=::1', '--loop', '--now', '-5']);
    expect([...ok.flags]).toEqual([
      ['port', '0'],
      ['host', '::1'],
      ['loop', 'true'],
      ['now', '-5'],
    ]);
    expect(ok.issues).toEqual([]);
    expect(
      parse(['--bogus', '1', '--port', '--host', 'x', 'y', '-x', '--loop=yes', '--host', 'z']).issues,
    ).toEqual([
      { key: '--bogus', problem: `unknown flag (known: ${KNOWN})` },
      { key: '--port', problem: 'needs a value' },
      { key: 'y', problem: 'unexpected argument (flags are --name value)' },
      { key: '-x', problem: 'unexpected argument (flags are --name value)' },
      { key: '--loop', problem: 'takes no value' },
      { key: '--host', problem: 'must not be repeated' },
    ]);
  });

  it('reads on after what parseArgs itself reads otherwise: `--`, a short group holding `-`, `--=x`', () => {
    expect(parse(['--', '1', '--port', '5']).issues).toEqual([
      { key: '--', problem: `unknown flag (known: ${KNOWN})` },
    ]);
    expect(parse(['--', '1', '--port', '5']).flags.get('port')).toBe('5');
    const group = parse(['-a-', '--port', '5', '--bogus', '-b-', '--host', 'h']);
    expect(group.issues.map((i) => i.key)).toEqual(['-a-', '--bogus']);
    expect([...group.flags]).toEqual([
      ['port', '5'],
      ['host', 'h'],
    ]);
    expect(parse(['--=3']).issues).toEqual([{ key: '--', problem: `unknown flag (known: ${KNOWN})` }]);
  });

  it('asks for help or the version exactly where commander answers them', () => {
    // The command line as loadConfigOrExit used to hand it to commander first.
    const commander = (argv: string[]): 'help' | 'version' | null => {
      if (!argv.some((a) => ['-h', '--help', '-V', '--version'].includes(a))) return null;
      let asked: 'help' | 'version' | null = null;
      const cmd = new Command('x')
        .version('v', '-V, --version')
        .helpOption('-h, --help', 'help')
        .allowUnknownOption()
        .allowExcessArguments()
        .exitOverride()
        .configureOutput({
          writeOut: (t) => (asked = t === 'v\n' ? 'version' : 'help'),
          writeErr: () => undefined,
        });
      for (const v of VALUES) cmd.option(`--${v} <x>`, v);
      for (const s of SWITCHES) cmd.option(`--${s}`, s);
      try {
        cmd.parse(argv, { from: 'user' });
      } catch (e) {
        if (!(e instanceof CommanderError)) throw e;
        return e.exitCode === 0 ? asked : null;
      }
      return null;
    };
    const arg = fc.oneof(
      fc.constantFrom(
        '--port',
        '--loop',
        '--bogus',
        '--',
        '-h',
        '--help',
        '-V',
        '--version',
        '-Vx',
        '-a-',
        '-5',
        'x',
      ),
      fc.constantFrom('--help=1', '--port=--help', '-h5', '--loop=1', '--=1'),
      fc.stringMatching(/^[-=a-z0-9]{0,4}$/),
    );
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 6 }), (argv) => {
        expect(parse(argv).asks).toBe(commander(argv));
      }),
      { numRuns: 1000 },
    );
  });
});
