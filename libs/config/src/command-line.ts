import { Command, CommanderError } from 'commander';
import { ENV_HELP, FLAG_HELP, FLAGS_OF, type AppName } from './options';
import { packageVersion } from './package-version';

const ABOUT: Readonly<Record<AppName, { name: string; description: string }>> = {
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

function envTable(app: AppName): string {
  const rows = ENV_HELP.filter((e) => e.apps.includes(app));
  const w = Math.max(...rows.map((r) => r.name.length));
  const d = Math.max(...rows.map((r) => r.defaultText.length));
  return rows.map((r) => `  ${r.name.padEnd(w)}  ${r.defaultText.padEnd(d)}  ${r.description}`).join('\n');
}

/**
 * The command line of `app` (commander): its flags with defaults, the environment it reads, and
 * --help / --version. It gives structure and help; values are validated by loadConfig, which
 * reports every bad key at once, so commander's own errors are silenced (see parseCommandLine).
 */
export function appCommand(app: AppName, write: (text: string) => void): Command {
  const about = ABOUT[app];
  const cmd = new Command(`route-service ${about.name}`)
    .description(about.description)
    .version(`route-service ${packageVersion()}`, '-V, --version')
    .helpOption('-h, --help', 'show flags and environment variables')
    .allowUnknownOption()
    .allowExcessArguments()
    .exitOverride()
    .configureOutput({ writeOut: write, writeErr: () => undefined });
  for (const name of FLAGS_OF[app]) {
    const f = FLAG_HELP.find((h) => h.name === name)!;
    cmd.option(`--${f.name} ${f.value}`, `${f.description} (default: ${f.defaultText})`);
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

/**
 * Parse argv with `app`'s command line. Returns 'exit' when it answered --help or --version (the
 * caller exits 0), else 'run'; malformed flags are left to loadConfig to report with the rest.
 */
export function parseCommandLine(
  app: AppName,
  argv: readonly string[],
  write: (text: string) => void,
): 'exit' | 'run' {
  try {
    appCommand(app, write).parse([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError && e.exitCode === 0) return 'exit';
    if (!(e instanceof CommanderError)) throw e;
  }
  return 'run';
}
