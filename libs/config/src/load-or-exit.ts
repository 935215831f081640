import { ConfigError } from './config-error';
import { loadConfig, type AppName } from './app-config';

const HELP_OR_VERSION = new Set(['-h', '--help', '-V', '--version']);

/**
 * The one place that reads process.argv and process.env: answer --help / --version, else load
 * `app`'s config or print every bad key and exit with status 2 before anything starts.
 */
export function loadConfigOrExit<A extends AppName>(app: A): ReturnType<typeof loadConfig<A>> {
  const argv = process.argv.slice(2);
  // commander answers --help and --version; every other argv is loadConfig's to validate, so the
  // servers' start-up (a bench figure) does not load commander (15-30 ms here) for nothing.
  if (argv.some((a) => HELP_OR_VERSION.has(a))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parseCommandLine } = require('./command-line') as typeof import('./command-line');
    if (parseCommandLine(app, argv, (t) => process.stdout.write(t)) === 'exit') process.exit(0);
  }
  try {
    return loadConfig(app, argv, process.env, process.cwd());
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n(--help lists the flags and environment variables)\n`);
      process.exit(2);
    }
    throw e;
  }
}
