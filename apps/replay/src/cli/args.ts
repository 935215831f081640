/** A command line: positional arguments and `--name value` / `--name=value` flags. */
export interface Args {
  readonly positional: readonly string[];
  readonly flags: ReadonlyMap<string, string>;
}

/** Bad command-line input: the CLI prints the message and exits with status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parse argv against the known flag names (`switches` take no value). Unknown or repeated flags are errors. */
export function parseArgs(
  argv: readonly string[],
  known: readonly string[],
  switches: readonly string[] = [],
): Args {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (!known.includes(name) && !switches.includes(name)) {
      const all = [...known, ...switches].map((k) => `--${k}`).join(', ');
      throw new UsageError(`unknown flag --${name} (known: ${all === '' ? 'none' : all})`);
    }
    if (flags.has(name)) throw new UsageError(`--${name} must not be repeated`);
    if (switches.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags.set(name, 'true');
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--')))
      throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { positional, flags };
}

/** An integer flag within [min, max], or `fallback` when absent. */
export function intFlag(args: Args, name: string, fallback: number, min: number, max: number): number {
  const raw = args.flags.get(name);
  if (raw === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(raw)) throw new UsageError(`--${name} must be an integer, got '${raw}'`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  return n;
}

/** A number flag within [min, max], or `fallback` when absent. */
export function numFlag(args: Args, name: string, fallback: number, min: number, max: number): number {
  const raw = args.flags.get(name);
  if (raw === undefined) return fallback;
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, got '${raw}'`);
  return n;
}

/** A required string flag. */
export function requiredFlag(args: Args, name: string): string {
  const v = args.flags.get(name);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}
