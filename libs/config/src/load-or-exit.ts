import { ConfigError } from './config-error';
import { loadConfig, type AppName } from './app-config';

/**
 * The one place that reads process.argv and process.env: load `app`'s config or print every
 * bad key and exit with status 2 before anything starts.
 */
export function loadConfigOrExit<A extends AppName>(app: A): ReturnType<typeof loadConfig<A>> {
  try {
    return loadConfig(app, process.argv.slice(2), process.env, process.cwd());
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}
