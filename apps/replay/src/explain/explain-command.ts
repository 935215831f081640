import { UsageError } from '@app/config';
import { Command } from 'commander';
import { configOption } from '@app/config';
import { findQuotes, journalLookup, quoteDecay, replayInput, sha256Hex } from '@app/audit';
import type { EventLog } from '@app/event-log';
import { constraintCosts, solveWithProof } from '@app/routing';
import { integer } from '../cli/args';
import type { CliContext } from '../cli/context';
import { logConfig, openReadLog } from '../cli/open-log';
import { costsText, decayText, proofText } from './explain-text';

interface ExplainOptions {
  readonly dataDir?: string;
  readonly occurrence?: number;
  readonly json?: boolean;
  readonly scan?: boolean;
}

const HELP = `
Rebuilds the books the journalled quote saw (the same snapshot 'replay quote' re-solves), then runs
the solver once with its proof on and once per alternative: the walk-the-book proof (every
candidate path, hop, leg and consumed level, the fee, staleness and score arithmetic, why the
winner won) and the cost of each constraint (the other strategies, direct versus each bridge, the
route without each active constraint, each as a value and a difference in bps). The re-solved
result must hash to the journalled response, so the proof explains the answer the client got.

Then the quote's decay: the same legs (venue and size) re-priced against the books the log holds
1 s, 5 s and 30 s later, as a rate and its difference from the quoted rate in bps.

stdout: text, or with --json one JSON text per quote: { requestId, occurrence, identical, sha256,
result, proof, constraintCosts, decay }. Exit status: 0 explained; 1 the replay is not byte-identical (the
explanation is still printed) or the record cannot be replayed; 3 not journalled; 2 usage.

Examples:
  route-service replay explain 4f1c2d...
  route-service replay explain 4f1c2d... --json | jq .constraintCosts.constraints`;

/** `explain <requestId>`: the proof and constraint costs of a journalled quote. */
export function registerExplain(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('explain')
    .summary('the walk-the-book proof and the cost of each constraint of a journalled quote')
    .description('Re-solve a journalled quote on its own snapshot with the proof and the counterfactuals on.')
    .argument('<requestId>', 'the requestId to explain')
    .addOption(configOption('replay', 'data-dir'))
    .option(
      '--occurrence <n>',
      'explain only the n-th record of the requestId (1 = oldest)',
      integer(1, 1_000_000),
    )
    .option('--json', 'print JSON instead of text')
    .option('--scan', "read the requestId's whole journal partition instead of the requestId index")
    .addHelpText('after', HELP)
    .action(async (id: string, o: ExplainOptions) => done(await explain(id, o, ctx)));
}

async function explain(id: string, o: ExplainOptions, ctx: CliContext): Promise<number> {
  const log = openReadLog(o.dataDir, ctx);
  try {
    return await explainIn(log, id, o, ctx);
  } finally {
    await log.close();
  }
}

async function explainIn(log: EventLog, id: string, o: ExplainOptions, ctx: CliContext): Promise<number> {
  // The requestId index, as `replay quote` uses it, unless --scan.
  const index = o.scan === true ? undefined : journalLookup(log, logConfig(o.dataDir, ctx).dataDir);
  const found = await findQuotes(log, id, index);
  if (found.length === 0) {
    ctx.err(`no journal record for requestId ${JSON.stringify(id)}`);
    return 3;
  }
  if (o.occurrence !== undefined && o.occurrence > found.length)
    throw new UsageError(
      `--occurrence ${o.occurrence}: requestId ${JSON.stringify(id)} has ${found.length} record(s)`,
    );
  const picked = o.occurrence === undefined ? found.map((_, i) => i + 1) : [o.occurrence];
  if (found.length > 1 && o.occurrence === undefined)
    ctx.err(`requestId ${JSON.stringify(id)} was journalled ${found.length} times; explaining each`);
  let worst = 0;
  for (const k of picked) {
    const occ = found[k - 1]!;
    if (!occ.ok) {
      ctx.err(`NOT REPRODUCIBLE: #${k} ${occ.topic}/${occ.partition}@${occ.offset}: ${occ.problem}`);
      worst = 1;
      continue;
    }
    const { input } = await replayInput(log, occ.record);
    const { result, proof } = solveWithProof(input);
    const costs = constraintCosts(input);
    const body = JSON.stringify(result);
    const sha256 = sha256Hex(body);
    const identical = sha256 === occ.record.responseSha256;
    const decay = await quoteDecay(log, occ.record, result);
    if (!identical) {
      ctx.err(
        `DIFFERENT: #${k} the re-solved result (sha256 ${sha256}) is not the journalled response (${occ.record.responseSha256}): the explanation is of the replay, not of what the client got (replay quote shows the diff)`,
      );
      worst = 1;
    }
    if (o.json === true) {
      ctx.out(
        `${JSON.stringify({ requestId: id, occurrence: k, identical, sha256, result, proof, constraintCosts: costs, decay })}\n`,
      );
      continue;
    }
    const r = occ.record.request;
    const text = [
      `== ${id} #${k}/${found.length} ${occ.topic}/${occ.partition}@${occ.offset}: ${r.from}->${r.to} ${r.amount} ${r.strategy}; replay ${identical ? 'identical' : 'DIFFERENT'} (sha256 ${sha256})`,
      ...proofText(proof),
      ...costsText(costs),
      ...decayText(decay),
    ];
    ctx.out(`${text.join('\n')}\n`);
  }
  return worst;
}
