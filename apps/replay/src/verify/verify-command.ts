import { resolve } from 'node:path';
import { Command } from 'commander';
import { configOption, UsageError } from '@app/config';
import { errorMessage } from '@app/retry';
import { verifyReceipt } from '@app/audit';
import type { CliContext } from '../cli/context';
import { openReadLog } from '../cli/open-log';
import { readCapped } from '../cli/read-capped';
import { readKeys, readReceipt } from './read-inputs';

interface VerifyOptions {
  readonly dataDir?: string;
  readonly keys: string[];
  readonly checkpoint: string[];
  readonly replay: boolean;
}

const HELP = `
Checks a quote receipt (the x-quote-receipt header) without trusting the operator, in order:
  1. its Ed25519 signature, by a key of its origin listed in --keys valid at its calculatedAt
     (unknown_key, bad_signature);
  2. the origin's transparency log (the tlog topic) rebuilt leaf by leaf against every checkpoint
     the origin signed, and against each --checkpoint you kept from earlier (inclusion_failed:
     leaves changed, reordered or removed under a signed root, or the log rolled back);
  3. a leaf for the receipt's requestId under the latest checkpoint (not_in_log, saying whether
     a checkpoint had already promised it), and the inclusion path to its root (inclusion_failed);
  4. the journal record the leaf names: it hashes to the leaf and carries the signed requestId,
     response SHA-256, length and calculatedAt (not_in_log when deleted, record_altered);
  5. the quote replayed from the recorded books to the signed SHA-256 (replay_differs).
stdout: 'verified' or 'failed: <reason>'; stderr: each step passed, and the failure's detail.
Exit status: 0 verified; 1 a check failed; 2 usage (unreadable receipt or keys).

Examples:
  route-service replay verify receipt.txt --keys https://quotes.example/keys
  curl -sD- 'https://quotes.example/route?...' | grep -i x-quote-receipt | route-service replay verify --keys keys.json
  route-service replay verify receipt.txt --keys eu-1.json --keys us-1.json --checkpoint kept.txt`;

/** A kept checkpoint is a signed note of a few lines. */
const MAX_KEPT_BYTES = 64 * 1024;

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** `verify [receipt]`: check a receipt against the keys, the origin's log, its record and a replay. */
export function registerVerify(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('verify')
    .summary("check a quote receipt: signature, the origin's log, its record, the replay")
    .description(
      'Verify a quote receipt against the public keys and the event log, trusting neither the operator nor its answers.',
    )
    .argument('[receipt]', "a file holding the receipt ('-' or none: standard input)")
    .addOption(configOption('replay', 'data-dir'))
    .option(
      '--keys <file|url>',
      'a GET /keys document (file or http(s) URL); repeat for several origins',
      collect,
      [],
    )
    .option(
      '--checkpoint <file>',
      'a signed checkpoint of the origin kept from earlier; repeatable',
      collect,
      [],
    )
    .option('--no-replay', 'skip step 5 (the replay from the books)')
    .addHelpText('after', HELP)
    .action(async (receipt: string | undefined, o: VerifyOptions) => done(await verify(receipt, o, ctx)));
}

async function verify(path: string | undefined, o: VerifyOptions, ctx: CliContext): Promise<number> {
  const receipt = await readReceipt(path, ctx);
  const keys = await readKeys(o.keys, ctx);
  const kept = o.checkpoint.map((p) => readKept(resolve(ctx.cwd, p)));
  const log = openReadLog(o.dataDir, ctx);
  try {
    const outcome = await verifyReceipt(log, receipt, keys, { kept, replay: o.replay });
    for (const step of outcome.steps) ctx.err(`ok: ${step}`);
    if (outcome.ok) {
      ctx.out('verified\n');
      return 0;
    }
    ctx.err(`${outcome.failure}: ${outcome.detail}`);
    ctx.out(`failed: ${outcome.failure}\n`);
    return 1;
  } finally {
    await log.close();
  }
}

function readKept(path: string): string {
  try {
    return readCapped(path, MAX_KEPT_BYTES);
  } catch (e) {
    throw new UsageError(`--checkpoint: cannot read ${path}: ${errorMessage(e)}`);
  }
}
