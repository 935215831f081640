import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConfigIssue } from './config-error';
import { SERVICE_APPS, type AppName, type ConfigKey, type KeyValue } from './keys/config-key';
import { CONFIG_KEYS, configKey } from './keys/keys';
import { parseNumber } from './parse-number';

type Env = Readonly<Record<string, string | undefined>>;

/** A key's raw value for one command: from its flag, else its variable, else absent. */
interface Source {
  readonly key: ConfigKey;
  /** `--flag` or `ENV_NAME`: the one given, else the one the command reads (its variable first). */
  readonly label: string;
  readonly raw: string | undefined;
}

/**
 * Reads the table's keys for one command, typed by their rows, collecting every problem so all
 * bad keys are reported at once. A flag given wins over its variable. Reading a key the table
 * does not give this command throws: the table's "apps" column is what the code reads.
 */
export class Reader {
  readonly issues: ConfigIssue[] = [];
  private readonly seen = new Set<ConfigKey>();

  constructor(
    readonly app: AppName,
    private readonly flags: ReadonlyMap<string, string>,
    private readonly env: Env,
    private readonly cwd: string,
  ) {}

  bad(key: string, problem: string): void {
    this.issues.push({ key, problem });
  }

  /** The name a problem of key `name` is reported under: its flag when given, else its variable. */
  label(name: string): string {
    return this.source(name).label;
  }

  /** Whether key `name` was given (flag or variable). */
  given(name: string): boolean {
    return this.source(name).raw !== undefined;
  }

  /** An integer key with a default. */
  int(name: string): number {
    const n = this.intOrNull(name);
    if (n === null) throw new Error(`libs/config: ${name} has no default; read it with intOrNull`);
    return n;
  }

  /** An integer key; null when unset and the table gives no default. */
  intOrNull(name: string): number | null {
    const { key, label, raw } = this.typed(name, 'int');
    const fallback = key.default as number | null;
    if (raw === undefined) return fallback;
    return this.number(label, raw, key.value as KeyValue & { type: 'int' }, true) ?? fallback;
  }

  /** A decimal key, or the word its row accepts besides a number (`max`). */
  decimal(name: string): number | string {
    const { key, label, raw } = this.typed(name, 'decimal');
    const value = key.value as KeyValue & { type: 'decimal' };
    if (raw === undefined) return key.default as number;
    if (value.or !== undefined && raw === value.or) return raw;
    return this.number(label, raw, value, false) ?? (key.default as number);
  }

  /** An environment value `true` or `false`. */
  bool(name: string): boolean {
    const { key, label, raw } = this.typed(name, 'bool');
    if (raw === undefined) return key.default as boolean;
    if (raw !== 'true' && raw !== 'false') this.bad(label, `must be true or false, got '${raw}'`);
    return raw === 'true';
  }

  /** A flag without a value: given or not. */
  switch(name: string): boolean {
    return this.typed(name, 'switch').raw !== undefined;
  }

  /** A text key, its row's checks applied; null when unset without a default. */
  text(name: string): string | null {
    const { key, label, raw } = this.typed(name, 'text');
    if (raw === undefined) return key.default as string | null;
    const check = (key.value as KeyValue & { type: 'text' }).check;
    for (const problem of check?.(raw) ?? []) this.bad(label, problem);
    return raw;
  }

  /** A path key resolved against the working directory (its row may require it to exist). */
  path(name: string, fallback?: string): string | null {
    const { key, label, raw } = this.typed(name, 'path');
    const path = raw ?? fallback ?? (key.default as string | null);
    if (path === null) return null;
    const abs = resolve(this.cwd, path);
    const missing = (key.value as KeyValue & { type: 'path' }).missing;
    if (raw !== undefined && missing !== undefined && !existsSync(abs)) this.bad(label, `${missing}: ${raw}`);
    return abs;
  }

  /** Keys the table gives this command that were never read (a tool's flags are commander's). */
  unread(): ConfigKey[] {
    const service = (SERVICE_APPS as readonly AppName[]).includes(this.app);
    const given = (k: ConfigKey): boolean =>
      k.env?.apps.includes(this.app) === true || (service && k.flag?.apps.includes(this.app) === true);
    return CONFIG_KEYS.filter((k) => given(k) && !this.seen.has(k));
  }

  private number(
    label: string,
    raw: string,
    bounds: { readonly min: number; readonly max: number },
    integer: boolean,
  ): number | null {
    const read = parseNumber(raw, { integer, min: bounds.min, max: bounds.max });
    if ('value' in read) return read.value;
    if (read.problem === 'range')
      this.bad(label, `must be between ${bounds.min} and ${bounds.max}, got ${raw}`);
    else this.bad(label, `must be ${integer ? 'an integer' : 'a plain decimal number'}, got '${raw}'`);
    return null;
  }

  private typed(name: string, type: KeyValue['type']): Source {
    const source = this.source(name);
    if (source.key.value.type !== type)
      throw new Error(`libs/config: ${name} is a ${source.key.value.type} key, not ${type}`);
    return source;
  }

  private source(name: string): Source {
    const key = configKey(name);
    const flag = key.flag?.apps.includes(this.app) === true ? key.flag : undefined;
    const env = key.env?.apps.includes(this.app) === true ? key.env : undefined;
    if (flag === undefined && env === undefined)
      throw new Error(`libs/config: the table does not give ${name} to ${this.app} (keys.ts)`);
    this.seen.add(key);
    const given = flag === undefined ? undefined : this.flags.get(flag.name);
    if (given !== undefined) return { key, label: `--${flag!.name}`, raw: given };
    const value = env === undefined ? undefined : this.env[env.name]?.trim();
    const label = env?.name ?? `--${flag!.name}`;
    return { key, label, raw: value === undefined || value === '' ? undefined : value };
  }
}
