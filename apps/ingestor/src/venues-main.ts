/**
 * `route-service venues check`: the venue doctor, the first step of a live deployment. Connects
 * to each venue as the ingestor would and prints what each serves (docs/venues.md "Checking the
 * venues"). `--help` for the flags.
 */
import { runVenues } from './check/check-command';

const abort = new AbortController();
// Ctrl-C ends the watch early: the report covers the time watched; a second Ctrl-C quits.
process.once('SIGINT', () => abort.abort());
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

runVenues(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(`${t}\n`),
  signal: abort.signal,
})
  .then((code) => {
    // Venue sockets may linger after the stop (ccxt's re-dial timers): the report is out, so exit.
    process.stdout.write('', () => process.exit(code));
  })
  .catch((e: unknown) => {
    process.stderr.write(`venues failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
