import type { ConfigIssue } from './config-error';

/** Parsed command-line flags: `--name value` or `--name=value`; every flag takes a value. */
export interface ParsedArgv {
  readonly flags: ReadonlyMap<string, string>;
  readonly issues: readonly ConfigIssue[];
}

/**
 * Split argv into flags, rejecting unknown, repeated, valueless and positional arguments.
 * `switches` take no value (present = 'true').
 */
export function parseArgv(
  argv: readonly string[],
  known: readonly string[],
  switches: readonly string[] = [],
): ParsedArgv {
  const flags = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      issues.push({ key: arg, problem: 'unexpected argument (flags are --name value)' });
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    const key = `--${name}`;
    if (switches.includes(name)) {
      if (eq >= 0) issues.push({ key, problem: 'takes no value' });
      else if (flags.has(name)) issues.push({ key, problem: 'must not be repeated' });
      else flags.set(name, 'true');
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) value = argv[++i];
    if (!known.includes(name)) {
      const all = [...known, ...switches].map((k) => `--${k}`).join(', ');
      issues.push({ key, problem: `unknown flag (known: ${all})` });
      continue;
    }
    if (value === undefined || value === '') {
      issues.push({ key, problem: 'needs a value' });
      continue;
    }
    if (flags.has(name)) {
      issues.push({ key, problem: 'must not be repeated' });
      continue;
    }
    flags.set(name, value);
  }
  return { flags, issues };
}
