import { defaultText, keyName, type AppName } from './keys/config-key';
import { CONFIG_KEYS, envOf, flagsOf } from './keys/keys';

/** One command-line flag: what `--help` shows. */
export interface FlagHelp {
  readonly name: string;
  readonly value: string;
  readonly defaultText: string;
  readonly description: string;
}

/** One environment variable, with its default, as `--help` shows it. */
export interface EnvHelp {
  readonly name: string;
  readonly defaultText: string;
  readonly description: string;
  readonly apps: readonly AppName[];
}

/** Every flag of the table, as help lists them. */
export const FLAG_HELP: readonly FlagHelp[] = CONFIG_KEYS.filter((k) => k.flag !== undefined).map((k) => ({
  name: k.flag!.name,
  value: k.flag!.arg,
  defaultText: defaultText(k),
  description: k.flag!.help ?? k.help,
}));

/** Every environment variable read (libs/config is the only reader of process.env). */
export const ENV_HELP: readonly EnvHelp[] = CONFIG_KEYS.filter((k) => k.env !== undefined).map((k) => ({
  name: keyName(k),
  defaultText: defaultText(k),
  description: k.help,
  apps: k.env!.apps,
}));

/** Which flags each command takes. */
export const FLAGS_OF: Readonly<Record<AppName, readonly string[]>> = {
  api: flagsOf('api'),
  start: flagsOf('start'),
  ingestor: flagsOf('ingestor'),
  replay: flagsOf('replay'),
  venues: flagsOf('venues'),
};

/** The environment `app` reads, one variable a line: name, default, meaning. */
export function envTable(app: AppName): string {
  const rows = envOf(app).map((k) => [keyName(k), defaultText(k), k.help] as const);
  const w = Math.max(...rows.map((r) => r[0].length));
  const d = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([name, dflt, help]) => `  ${name.padEnd(w)}  ${dflt.padEnd(d)}  ${help}`).join('\n');
}
