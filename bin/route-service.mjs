#!/usr/bin/env node
/**
 * `route-service <command> [args]`: the one command line of the project (package bin; the npm
 * scripts are aliases of it). Each command is an app's built entry, loaded in this process after
 * the staleness check of scripts/run.mjs; the app parses its own arguments with commander, so
 * `route-service <command> --help` is that app's complete help. Only this dispatcher lives here:
 * an app never imports another app.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBuilt } from '../scripts/run.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** command -> [built entry, one-line summary]. To add a command, add its app's entry here. */
const COMMANDS = {
  start: ['dist/apps/api/src/start.js', 'ingestor + API in one process (npm start)'],
  api: ['dist/apps/api/src/main.js', 'the API alone, folding the event log (npm run start:api)'],
  ingestor: [
    'dist/apps/ingestor/src/main.js',
    'the ingestor alone, into the event log (npm run start:ingestor)',
  ],
  venues: [
    'dist/apps/ingestor/src/venues-main.js',
    'check: connect to each venue as the ingestor would and report what it serves (first step of a live deployment)',
  ],
  replay: [
    'dist/apps/replay/src/main.js',
    'quote, audit, record, backtest, generate, import: replay and audit journalled quotes, backtest recordings (npm run replay)',
  ],
};

const [command, ...rest] = process.argv.slice(2);
if (command !== undefined && Object.hasOwn(COMMANDS, command)) {
  // The fast path loads nothing else: npm start's time to its first /health answer is a bench figure.
  runBuilt(resolve(ROOT, COMMANDS[command][0]), rest);
} else if (command === 'help' && rest[0] !== undefined && Object.hasOwn(COMMANDS, rest[0])) {
  runBuilt(resolve(ROOT, COMMANDS[rest[0]][0]), [...rest.slice(1), '--help']);
} else {
  await topLevel();
}

/** --help, --version, and errors for a missing or unknown command (exit 2). */
async function topLevel() {
  const { Command, CommanderError } = await import('commander');
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8'));
  const program = new Command('route-service')
    .description(
      'Route quoting across cached level-2 order books: the service, its ingestor, replay and audit tools.',
    )
    .version(`route-service ${version}`, '-V, --version')
    .usage('<command> [options]')
    .exitOverride()
    .showHelpAfterError('(route-service --help lists the commands)')
    .addHelpText(
      'after',
      `
Each command has its own help: route-service <command> --help (flags, environment variables,
defaults, exit codes). Examples:
  route-service venues check --venues binance,kraken
  route-service start --replay replay-data/ --speed max --port 0
  route-service replay quote <requestId>
  route-service replay audit --from 2026-08-10T12:00:00Z --to 2026-08-10T13:00:00Z`,
    );
  for (const [name, [, summary]] of Object.entries(COMMANDS))
    program.command(name).description(summary).helpOption(false);
  program.command('help [command]').description('show the help of a command');
  if (command === undefined) {
    program.outputHelp({ error: true });
    process.exit(2);
  }
  try {
    program.parse(process.argv);
  } catch (e) {
    process.exit(e instanceof CommanderError && e.exitCode === 0 ? 0 : 2);
  }
  // `help` alone
  program.outputHelp();
}
