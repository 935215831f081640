import { Command } from 'commander';
import { defaultText } from './keys/config-key';
import { flagKey, flagsOf } from './keys/keys';
import { envTable } from './help';
import { packageVersion } from './package-version';

type ServiceApp = 'start' | 'api' | 'ingestor';

const ABOUT: Readonly<Record<ServiceApp, { name: string; description: string }>> = {
  start: {
    name: 'start',
    description:
      'The ingestor (live venues through ccxt, or a recording with --replay) and the HTTP/WebSocket API in one process.',
  },
  api: {
    name: 'api',
    description:
      'The HTTP/WebSocket API alone, folding the event log an ingestor writes (same DATA_DIR or KAFKA_BROKERS).',
  },
  ingestor: {
    name: 'ingestor',
    description:
      'The ingestor alone: live venues (or --replay) into the event log that `route-service api` folds.',
  },
};

/**
 * The help of `app` (commander): its flags with defaults, the environment it reads, and
 * --version, all from the table. commander renders it; argv is read by parse-argv.ts, which
 * says when help or the version is asked for.
 */
export function appCommand(app: ServiceApp, write: (text: string) => void): Command {
  const about = ABOUT[app];
  const cmd = new Command(`route-service ${about.name}`)
    .description(about.description)
    .version(`route-service ${packageVersion()}`, '-V, --version')
    .helpOption('-h, --help', 'show flags and environment variables')
    .configureOutput({ writeOut: write, writeErr: () => undefined });
  for (const name of flagsOf(app)) {
    const key = flagKey(name);
    const f = key.flag!;
    cmd.option(`--${f.name} ${f.arg}`, `${f.help ?? key.help} (default: ${defaultText(key)})`);
  }
  cmd.addHelpText(
    'after',
    `
Flags take --name value or --name=value.

Environment (default, meaning):
${envTable(app)}

An unknown flag or an invalid value stops the process at once with exit status 2 and a message
naming every bad key. The npm scripts are aliases: npm ${app === 'start' ? 'start' : `run start:${app}`} -- <flags>.`,
  );
  return cmd;
}
