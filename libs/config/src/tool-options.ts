import type { Option } from 'commander';
import { defaultText, type AppName } from './keys/config-key';
import { CONFIG_KEYS } from './keys/keys';
import { parseNumber, type NumberBounds } from './parse-number';

// commander is loaded when a tool builds its options: the services never load it to start.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const commander = (): typeof import('commander') => require('commander') as typeof import('commander');

/** A commander argument parser for a number within bounds: parseNumber, in commander's words. */
export function numberArg(bounds: NumberBounds): (raw: string) => number {
  return (raw) => {
    const read = parseNumber(raw, bounds);
    if ('value' in read) return read.value;
    const { InvalidArgumentError } = commander();
    throw new InvalidArgumentError(
      `must be ${bounds.integer ? 'an integer' : 'a number'} from ${bounds.min} to ${bounds.max}`,
    );
  };
}

/**
 * The commander option of a table key's flag for a tool (`replay`, `venues`): its placeholder,
 * help (`help` replaces the row's), bounds and default, all from the row. A flag whose variable
 * the tool also reads names the variable, then its default, as the default; its value is
 * then read by loadConfig, the variable's reader.
 */
export function configOption(app: AppName, flag: string, help?: string): Option {
  const key = CONFIG_KEYS.find((k) => k.flag?.name === flag && k.flag.apps.includes(app));
  if (key === undefined) throw new Error(`libs/config: the table gives no --${flag} to ${app}`);
  const f = key.flag!;
  const env = key.env?.apps.includes(app) === true ? key.env : undefined;
  const text = help ?? f.help ?? key.help;
  const { Option: CommanderOption } = commander();
  const option = new CommanderOption(
    f.arg === '' ? `--${f.name}` : `--${f.name} ${f.arg}`,
    env === undefined ? text : `${text} (default: ${env.name}, else ${defaultText(key)})`,
  );
  const v = key.value;
  if (v.type === 'int' || v.type === 'decimal')
    option.argParser(numberArg({ integer: v.type === 'int', min: v.min, max: v.max }));
  if (env === undefined && key.default !== null) option.default(key.default);
  return option;
}
