import { CONFIG_KEYS, defaultText, keyName, type AppName, type ConfigKey } from '@app/config';
import { format, resolveConfig } from 'prettier';

/** Where the tables live. */
export const README_PATH = 'README.md';

/** The order the README names the commands in, and how. */
const COMMANDS: readonly (readonly [AppName, string])[] = [
  ['start', 'start'],
  ['api', 'api'],
  ['ingestor', 'ingestor'],
  ['replay', 'replay'],
  ['venues', 'venues check'],
];
const SERVICES: readonly AppName[] = ['start', 'api', 'ingestor'];

const cell = (text: string): string => text.replace(/\|/g, '\\|');
const commands = (apps: readonly AppName[]): string =>
  COMMANDS.filter(([app]) => apps.includes(app))
    .map(([, name]) => name)
    .join(', ');

/** A default as the README writes it: values as code, stand-ins ('unset', 'live venues') as words. */
function defaultCell(key: ConfigKey): string {
  if (key.shown !== undefined || key.default === null) return defaultText(key);
  return `\`${String(key.default)}\`${key.note === undefined ? '' : ` (${key.note})`}`;
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The service processes' flags (replay's and the venue check's are in their own --help). */
export function flagTable(): string {
  const rows = CONFIG_KEYS.filter((k) => k.flag?.apps.some((a) => SERVICES.includes(a)) === true).map((k) => {
    const f = k.flag!;
    return [
      `\`--${f.name}${f.arg === '' ? '' : ` ${f.arg}`}\``,
      commands(f.apps),
      defaultCell(k),
      f.doc ?? k.doc,
    ];
  });
  return table(['Flag', 'Commands', 'Default', 'Meaning'], rows);
}

/** Every environment variable, with the commands that read it. */
export function envTable(): string {
  const rows = CONFIG_KEYS.filter((k) => k.env !== undefined).map((k) => [
    `\`${keyName(k)}\``,
    commands(k.env!.apps),
    defaultCell(k),
    k.doc,
  ]);
  return table(['Variable', 'Commands', 'Default', 'Meaning'], rows);
}

const MARKS = {
  flags: [
    '<!-- config:flags (npm run docs:config writes this table from libs/config/src/keys) -->',
    '<!-- /config:flags -->',
  ],
  env: [
    '<!-- config:env (npm run docs:config writes this table from libs/config/src/keys) -->',
    '<!-- /config:env -->',
  ],
} as const;

function splice(text: string, [open, close]: readonly [string, string], body: string): string {
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start)
    throw new Error(`${README_PATH}: the markers ${open} ... ${close} are missing`);
  return `${text.slice(0, start + open.length)}\n\n${body}\n\n${text.slice(end)}`;
}

/** `readme` with its configuration tables made from the table, formatted as the repository formats Markdown. */
export async function withConfigTables(readme: string, root: string): Promise<string> {
  const text = splice(splice(readme, MARKS.flags, flagTable()), MARKS.env, envTable());
  const path = `${root}/${README_PATH}`;
  return format(text, { ...((await resolveConfig(path)) ?? {}), filepath: path });
}
