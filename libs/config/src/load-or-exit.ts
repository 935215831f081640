import { ConfigError } from './config-error';
import { parseAppArgv, readConfig, type ConfigOf } from './app-config';
import { packageVersion } from './package-version';

/**
 * The one place that reads process.argv and process.env: argv is parsed once (parse-argv.ts);
 * it answers --help / --version, else loads `app`'s config or prints every bad key and exits
 * with status 2 before anything starts.
 */
export function loadConfigOrExit<A extends 'api' | 'start' | 'ingestor'>(app: A): ConfigOf<A> {
  const parsed = parseAppArgv(app, process.argv.slice(2));
  if (parsed.asks === 'version') {
    process.stdout.write(`route-service ${packageVersion()}\n`);
    process.exit(0);
  }
  if (parsed.asks === 'help') {
    // commander renders the help; the servers' start-up (a bench figure) never loads it (15-30 ms).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { appCommand } = require('./command-line') as typeof import('./command-line');
    appCommand(app, (t) => process.stdout.write(t)).outputHelp();
    process.exit(0);
  }
  try {
    return readConfig(app, parsed, process.env, process.cwd());
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n(--help lists the flags and environment variables)\n`);
      process.exit(2);
    }
    throw e;
  }
}
