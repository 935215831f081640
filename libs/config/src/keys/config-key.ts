/** The commands that read configuration: the three service processes and the two tools. */
export type AppName = 'api' | 'start' | 'ingestor' | 'replay' | 'venues';

/** The service processes: their flags are read from argv by libs/config (parse-argv.ts). */
export const SERVICE_APPS = ['start', 'api', 'ingestor'] as const satisfies readonly AppName[];

/** How a raw string becomes a value, and what it must be. */
export type KeyValue =
  | { readonly type: 'int'; readonly min: number; readonly max: number }
  /** `or`: a word accepted besides a number (`--speed max`). */
  | { readonly type: 'decimal'; readonly min: number; readonly max: number; readonly or?: string }
  /** An environment value `true` or `false`. */
  | { readonly type: 'bool' }
  /** A flag without a value: present or not. */
  | { readonly type: 'switch' }
  /** `check` names every problem of a value ([] = fine). */
  | { readonly type: 'text'; readonly check?: (value: string) => readonly string[] }
  /** Resolved against the working directory; `missing` is the problem when it must exist and does not. */
  | { readonly type: 'path'; readonly missing?: string };

/** A key's environment variable and the commands that read it. */
export interface KeyEnv {
  readonly name: string;
  readonly apps: readonly AppName[];
}

/** A key's command-line flag and the commands that take it. */
export interface KeyFlag {
  /** Without the dashes. */
  readonly name: string;
  /** The value's placeholder in help (`<n>`); '' for a switch. */
  readonly arg: string;
  readonly apps: readonly AppName[];
  /** The flag's help line when it says something else than the variable's. */
  readonly help?: string;
  /** The README's words for the flag (flags of the service processes only). */
  readonly doc?: string;
}

/**
 * One configuration key: a row of the table (keys.ts). The reader, every command's `--help` and
 * the README's tables are made from these rows, so a default, a bound or a name is written once.
 */
export interface ConfigKey {
  readonly env?: KeyEnv;
  readonly flag?: KeyFlag;
  readonly value: KeyValue;
  /** null = unset (the key is optional). */
  readonly default: number | string | boolean | null;
  /** The default as help shows it, when that is not the value itself ('live venues'). */
  readonly shown?: string;
  /** Said after the default value ('7 days'). */
  readonly note?: string;
  /** The `--help` line: short, plain text. */
  readonly help: string;
  /** The README's words (Markdown). */
  readonly doc: string;
}

/** What help and errors call a key: its variable's name, else `--flag`. */
export function keyName(key: ConfigKey): string {
  return key.env?.name ?? `--${key.flag!.name}`;
}

/** The default as help and the README show it: the value (or its stand-in) and the note. */
export function defaultText(key: ConfigKey): string {
  const shown = key.shown ?? (key.default === null ? 'unset' : String(key.default));
  return key.note === undefined ? shown : `${shown} (${key.note})`;
}

export const int = (min: number, max: number): KeyValue => ({ type: 'int', min, max });
export const decimal = (min: number, max: number, or?: string): KeyValue =>
  or === undefined ? { type: 'decimal', min, max } : { type: 'decimal', min, max, or };
export const text = (check?: (value: string) => readonly string[]): KeyValue =>
  check === undefined ? { type: 'text' } : { type: 'text', check };

/** A problem when the value holds whitespace: a host name or address never does. */
export function hostCheck(value: string): readonly string[] {
  return /\s/.test(value) ? [`must be an address or host name, got '${value}'`] : [];
}
