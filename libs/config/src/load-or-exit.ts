import { ConfigError } from './config-error';
import { loadConfig, type AppName } from './app-config';
import { parseCommandLine } from './command-line';

/**
 * The one place that reads process.argv and process.env: answer --help / --version, else load
 * `app`'s config or print every bad key and exit with status 2 before anything starts.
 */
export function loadConfigOrExit<A extends AppName>(app: A): ReturnType<typeof loadConfig<A>> {
  const argv = process.argv.slice(2);
  if (parseCommandLine(app, argv, (t) => process.stdout.write(t)) === 'exit') process.exit(0);
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
