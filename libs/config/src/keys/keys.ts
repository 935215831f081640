import { keyName, type AppName, type ConfigKey } from './config-key';
import { SHARD_KEYS, VENUE_KEYS, WRITER_KEYS } from './ingest-keys';
import { FLAG_KEYS, LOG_KEYS, OBSERVABILITY_KEYS } from './process-keys';
import { SERVER_KEYS } from './server-keys';

/**
 * The configuration table: every key any command reads, one row each, in the order help and the
 * README list them. The config reader, each command's `--help` and the README's flag and
 * environment tables (`npm run docs:config`) are made from it.
 */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  ...FLAG_KEYS,
  ...LOG_KEYS,
  ...SHARD_KEYS,
  ...VENUE_KEYS,
  ...SERVER_KEYS,
  ...WRITER_KEYS,
  ...OBSERVABILITY_KEYS,
];

const BY_NAME: ReadonlyMap<string, ConfigKey> = new Map(CONFIG_KEYS.map((k) => [keyName(k), k]));

/** The row named `name` (`HEARTBEAT_MS`, or `--port` for a key with no variable). */
export function configKey(name: string): ConfigKey {
  const key = BY_NAME.get(name);
  if (key === undefined) throw new Error(`libs/config: no key named ${name} in the table`);
  return key;
}

/** The row whose flag is `--name`. */
export function flagKey(name: string): ConfigKey {
  const key = CONFIG_KEYS.find((k) => k.flag?.name === name);
  if (key === undefined) throw new Error(`libs/config: no flag --${name} in the table`);
  return key;
}

/** The flag names `app` takes, in table order. */
export function flagsOf(app: AppName): string[] {
  return CONFIG_KEYS.filter((k) => k.flag?.apps.includes(app) === true).map((k) => k.flag!.name);
}

/** The environment variables `app` reads, in table order. */
export function envOf(app: AppName): ConfigKey[] {
  return CONFIG_KEYS.filter((k) => k.env?.apps.includes(app) === true);
}

/** A numeric key's default as the table writes it: for tests, benches and embedders that build by hand. */
export function defaultOf(name: string): number {
  const value = configKey(name).default;
  if (typeof value !== 'number') throw new Error(`libs/config: ${name} has no numeric default`);
  return value;
}
