import { parseArgs } from 'node:util';
import type { ConfigIssue } from './config-error';

/** A command line read: the flags given, what is wrong with it, and whether it asks for help or the version. */
export interface ParsedArgv {
  readonly flags: ReadonlyMap<string, string>;
  readonly issues: readonly ConfigIssue[];
  /** `--help`/`-h` or `--version`/`-V`, where commander (which answers them) would take it so. */
  readonly asks: 'help' | 'version' | null;
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];
type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

interface Rules {
  readonly options: Options;
  readonly values: readonly string[];
  readonly switches: readonly string[];
  readonly known: string;
}

const UNEXPECTED = 'unexpected argument (flags are --name value)';
const ASKED: ReadonlySet<string> = new Set(['-h', '--help', '-V', '--version']);
/** What commander takes for a negative number, not an option. */
const NEGATIVE = /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/;

/**
 * Read argv with node:util's parseArgs: `--name value` or `--name=value` for the flags in
 * `values`, `--name` alone for `switches`. Unknown, repeated, valueless and positional arguments
 * are issues, all of them, not a stop at the first. A value never starts with `--` (`--port
 * --host x` lacks a port), and an unknown flag takes the next argument as its value when it can.
 */
export function parseArgv(
  argv: readonly string[],
  values: readonly string[],
  switches: readonly string[] = [],
): ParsedArgv {
  const rules: Rules = {
    options: Object.fromEntries([
      ...values.map((name) => [name, { type: 'string' as const }]),
      ...switches.map((name) => [name, { type: 'boolean' as const }]),
    ]) as Options,
    values,
    switches,
    known: [...values, ...switches].map((k) => `--${k}`).join(', '),
  };
  const flags = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  for (let start = 0; start < argv.length;) {
    const args = argv.slice(start);
    const resume = readTokens(tokenize(args, rules), args, rules, flags, issues);
    if (resume === null) break;
    start += resume;
  }
  return { flags, issues, asks: asksOf(argv, rules) };
}

function tokenize(args: readonly string[], rules: Rules): readonly Token[] {
  return parseArgs({
    args: [...args],
    options: rules.options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  }).tokens;
}

/**
 * What commander would answer: `--version`/`-V` (or `-Vx`) as soon as it is met; `--help`/`-h`
 * once all is read, unless a value flag ends the line without its value (an error first). Not an
 * argument taken as a flag's value, and only when one of them is written whole. After `--` it
 * reads no option, yet finds help there once an unknown option has sent it all to its leftovers.
 */
function asksOf(argv: readonly string[], rules: Rules): ParsedArgv['asks'] {
  if (!argv.some((a) => ASKED.has(a))) return null;
  let help = false;
  let cutShort = false;
  let unknown = false;
  for (let start = 0; start < argv.length;) {
    const args = argv.slice(start);
    let resume: number | null = null;
    for (const t of tokenize(args, rules)) {
      if (t.kind === 'option-terminator') {
        help ||= unknown && args.slice(t.index + 1).some((a) => a === '-h' || a === '--help');
        return help && !cutShort ? 'help' : null;
      }
      if (t.kind !== 'option') continue;
      const raw = args[t.index]!;
      if (!raw.startsWith('--')) {
        // commander splits `-Vx` (an option it knows first); help it finds only as `-h` whole. What
        // parseArgs makes of the rest of a short group (`-a-` holds a `--`) is read again.
        if (raw[1] === 'V') return 'version';
        help ||= raw === '-h';
        unknown ||= !NEGATIVE.test(raw);
        resume = t.index + 1;
        break;
      }
      if (raw.includes('=')) {
        unknown ||= !rules.values.includes(t.name);
        continue;
      }
      if (t.name === 'version') return 'version';
      help ||= t.name === 'help';
      unknown ||= !rules.values.includes(t.name) && !rules.switches.includes(t.name);
      cutShort ||= rules.values.includes(t.name) && t.value === undefined;
    }
    if (resume === null) break;
    start += resume;
  }
  return help && !cutShort ? 'help' : null;
}

/** Apply the tokens of `args` up to the first part that needs reading again; where that is, or null. */
function readTokens(
  tokens: readonly Token[],
  args: readonly string[],
  rules: Rules,
  flags: Map<string, string>,
  issues: ConfigIssue[],
): number | null {
  const skip = new Set<number>();
  // The next argument, when an unknown flag or `--` can take it as its value.
  const valueAt = (i: number): boolean => i < args.length && !args[i]!.startsWith('--');
  for (const t of tokens) {
    if (skip.has(t.index)) continue;
    if (t.kind === 'option-terminator') {
      issues.push({ key: '--', problem: `unknown flag (known: ${rules.known})` });
      return valueAt(t.index + 1) ? t.index + 2 : t.index + 1;
    }
    if (t.kind === 'positional') {
      issues.push({ key: t.value, problem: UNEXPECTED });
      continue;
    }
    const raw = args[t.index]!;
    if (!raw.startsWith('--')) {
      // `-x`, `-5`: one issue per argument, read on after it (parseArgs may make a `--` of `-a-`).
      issues.push({ key: raw, problem: UNEXPECTED });
      return t.index + 1;
    }
    // The name as written (parseArgs names `--=x` otherwise); a known one is parseArgs' too.
    const eq = raw.indexOf('=');
    const name = raw.slice(2, eq >= 0 ? eq : undefined);
    const key = `--${name}`;
    if (rules.switches.includes(name)) {
      if (eq >= 0) issues.push({ key, problem: 'takes no value' });
      else if (flags.has(name)) issues.push({ key, problem: 'must not be repeated' });
      else flags.set(name, 'true');
      continue;
    }
    if (!rules.values.includes(name)) {
      issues.push({ key, problem: `unknown flag (known: ${rules.known})` });
      if (eq >= 0 || !valueAt(t.index + 1)) continue;
      const taken = args[t.index + 1]!;
      if (!taken.startsWith('-')) skip.add(t.index + 1);
      // parseArgs read `-x` as options of its own (perhaps a `--`): read on after it.
      else return t.index + 2;
      continue;
    }
    if (t.inlineValue === false && t.value.startsWith('--')) {
      issues.push({ key, problem: 'needs a value' });
      return t.index + 1;
    }
    if (t.value === undefined || t.value === '') issues.push({ key, problem: 'needs a value' });
    else if (flags.has(name)) issues.push({ key, problem: 'must not be repeated' });
    else flags.set(name, t.value);
  }
  return null;
}
