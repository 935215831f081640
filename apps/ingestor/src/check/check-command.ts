import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ConfigError, envTable, loadConfig, numberArg, packageVersion, UsageError } from '@app/config';
import {
  DEFAULT_VENUES,
  loadVenuesConfig,
  VenuesConfigError,
  watchOrderBookIds,
  type VenuesConfig,
} from '@app/venues';
import { exitCode, renderTable } from './check-report';
import { runCheck, type CheckRun } from './run-check';

/** What `route-service venues` may touch, passed in (the process's in main, a test's own elsewhere). */
export interface VenuesContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly out: (text: string) => void;
  /** One line on stderr (the newline is added). */
  readonly err: (line: string) => void;
  /** Ends a check's window early (Ctrl-C). */
  readonly signal?: AbortSignal;
}

const CHECK_HELP = `
Connects to each venue exactly as the ingestor would: the same ccxt classes, the same venues and
symbols (VENUES_CONFIG, else the default venues and their markets among BTC, ETH, USDT, USDC,
SOL, XRP, EUR, USD), the same per-venue limits and recovery. Nothing is written to the event log.
After --seconds it prints, per venue:
  MARKETS     markets found in the universe (or configured symbols the venue lists)
  BOOKS       of them, how many published a book
  FIRST BOOK  time from the start to the venue's first book
  DEPTH B/A   levels per side (median over its books) at the end
  UPD/S       book updates per second since the first book
  GAPS, CKSUM sequence gaps and checksum failures the feed had (each forces a resync)
  BAD         crossed or one-sided books withheld
  VERDICT     ok; WARN (some books missing, integrity failures, drops); FAIL (no market or no book)
and under a venue that is not ok, its last errors in its own words (ccxt's messages).

Environment (default, meaning):
${envTable('venues')}

VENUES_CONFIG also carries ccxt options and API keys. Run it first on a new deployment, with the
same environment as the ingestor, and read the FAIL and WARN rows before starting the service.

Exit status: 0 every selected venue ok or warn; 1 a selected venue failed; 2 bad usage or
configuration.

Examples:
  route-service venues check
  route-service venues check --venues binance,kraken --seconds 60
  VENUES_CONFIG=venues.json route-service venues check --json > check.json`;

/** --seconds: how long the venues are watched. */
const seconds = numberArg({ integer: true, min: 1, max: 3600 });

function idList(raw: string): string[] {
  const ids = raw.split(',').map((s) => s.trim());
  if (ids.some((id) => !/^[a-z0-9]+$/.test(id)))
    throw new InvalidArgumentError('must be exchange ids like binance,kraken');
  return [...new Set(ids)];
}

/** VENUES_CONFIG as the ingestor reads it (the check's config section), or null for the default venues. */
function venuesConfigOf(ctx: VenuesContext): { config: VenuesConfig | null; source: string } {
  let path: string | null;
  try {
    path = loadConfig('venues', new Map(), ctx.env, ctx.cwd).venuesConfig;
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  if (path === null) return { config: null, source: 'the default venues' };
  try {
    return { config: loadVenuesConfig(path, watchOrderBookIds()), source: `VENUES_CONFIG ${path}` };
  } catch (e) {
    if (e instanceof VenuesConfigError) throw new UsageError(`VENUES_CONFIG: ${e.message}`);
    throw e;
  }
}

/** The selected ids, each one a venue the ingestor would run. */
function selection(config: VenuesConfig | null, wanted: readonly string[] | undefined): Set<string> | null {
  if (wanted === undefined) return null;
  const runs = config === null ? DEFAULT_VENUES : [...config.venues.keys()];
  const unknown = wanted.filter((id) => !runs.includes(id));
  if (unknown.length > 0)
    throw new UsageError(
      config === null
        ? `not a default venue: ${unknown.join(', ')} (add it to a VENUES_CONFIG file to check it)`
        : `not in VENUES_CONFIG: ${unknown.join(', ')} (it lists ${runs.join(', ')})`,
    );
  return new Set(wanted);
}

async function check(
  ctx: VenuesContext,
  opts: { venues?: string[]; seconds: number; json?: boolean },
): Promise<number> {
  const { config, source } = venuesConfigOf(ctx);
  const only = selection(config, opts.venues);
  const count = only?.size ?? (config === null ? DEFAULT_VENUES.length : config.venues.size);
  ctx.err(`checking ${count} venue(s) from ${source} for ${opts.seconds} s ...`);
  const run: CheckRun = await runCheck({
    venuesConfig: config,
    only,
    seconds: opts.seconds,
    signal: ctx.signal,
  });
  ctx.out(opts.json === true ? `${JSON.stringify(run.report, null, 2)}\n` : renderTable(run.report));
  await run.stop();
  return exitCode(run.report);
}

/** `route-service venues <argv>`; resolves to the exit status, never throws for bad input. */
export async function runVenues(argv: readonly string[], ctx: VenuesContext): Promise<number> {
  let code = 0;
  const program = new Command('route-service venues')
    .description('Check the venues before a live deployment.')
    .version(`route-service ${packageVersion()}`, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.out(s), writeErr: (s) => ctx.err(s.replace(/\n$/, '')) })
    .showHelpAfterError('(add --help for usage)');
  program
    .command('check')
    .description('connect to each venue as the ingestor would and report what it serves (no log writes)')
    .option(
      '--venues <ids>',
      'comma-separated exchange ids (default: every venue the ingestor would run)',
      idList,
    )
    .option('--seconds <n>', 'how long to watch the venues', seconds, 30)
    .option('--json', 'print the report as JSON (for scripts)')
    .addHelpText('after', CHECK_HELP)
    .action(async (opts: { venues?: string[]; seconds: number; json?: boolean }) => {
      code = await check(ctx, opts);
    });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UsageError) {
      ctx.err(e.message);
      return 2;
    }
    throw e;
  }
}
