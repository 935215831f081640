import type { QuoteDecay } from '@app/audit';
import type {
  CandidateProof,
  ConstraintCosts,
  Counterfactual,
  HopProof,
  LegProof,
  Outcome,
  SolveProof,
} from '@app/routing';

// The text rendering of `replay explain`: the proof and the constraint costs for a person to read.
// Numbers are printed with enough digits to recompute each line by hand (toPrecision(10)).

const num = (n: number | null): string => (n === null ? '-' : String(Number(n.toPrecision(10))));
const bps = (n: number | null): string => (n === null ? 'n/a' : `${n >= 0 ? '+' : ''}${n.toFixed(2)} bps`);

/** The proof as indented text: every candidate, its hops, legs and consumed levels, then the decision. */
export function proofText(p: SolveProof): string[] {
  const lines = [
    `proof v${p.proofVersion}, solver ${p.solverVersion}, requestId ${p.requestId}, now ${p.calculatedAt} (${new Date(p.calculatedAt).toISOString()})`,
    `exact ${p.exactSide} ${num(p.requestedAmount)} ${p.pinnedAsset}; hopPenaltyBps ${p.hopPenaltyBps}, requireFullFill ${p.requireFullFill}; staleBookMs ${p.config.staleBookMs}, stalenessPenaltyBps ${p.config.stalenessPenaltyBps}, defaultTakerFeeRate ${p.config.defaultTakerFeeRate}`,
  ];
  for (const c of p.candidates) lines.push(...candidateText(c));
  const d = p.decision;
  lines.push(
    `decision: ${d.winner === null ? 'nothing routed' : `candidate ${d.winner} wins`} (${d.rule})` +
      (d.runnerUp === null ? '' : `, runner-up ${d.runnerUp}, margin ${bps(d.marginBps)}`),
  );
  return lines;
}

function candidateText(c: CandidateProof): string[] {
  const head = `candidate ${c.index} ${c.pairs.join(' -> ')}${c.bridge === null ? ' (direct)' : ` (via ${c.bridge})`}: ${c.verdict}`;
  if (!c.solved) return [`${head}, not solved (exact-out solves the direct market only)`];
  const lines = [
    `${head}; in ${num(c.amountIn)} out ${num(c.amountOut)}${c.unroutableReason === null ? '' : `, unroutable ${c.unroutableReason} at hop ${c.failedAtHop}`}${c.ineligibleBecause === null ? '' : `, ineligible: ${c.ineligibleBecause}`}`,
  ];
  if (c.score !== null)
    lines.push(
      `  score: ${c.score.steps.map(num).join(' * ' + num(c.score.factor) + ' = ')} -> ${num(c.score.score)} (${c.score.hops} hop(s), factor ${num(c.score.factor)})`,
    );
  if (c.trim !== null)
    lines.push(
      `  trim: hop 1 delivered ${num(c.trim.delivered)}, hop 2 absorbed ${num(c.trim.absorbed)} after ${c.trim.rounds} round(s)`,
    );
  for (const h of c.hops) lines.push(...hopText(h));
  return lines;
}

function hopText(h: HopProof): string[] {
  const lines = [
    `  hop ${h.index} ${h.pair} ${h.side} (${h.strategy}): asked ${h.asked.pinned} ${num(h.asked.amount)} ${h.asked.asset}; ${num(h.amountIn)} ${h.inAsset} -> ${num(h.amountOut)} ${h.outAsset}${h.unroutableReason === null ? '' : `, ${h.unroutableReason}`}`,
  ];
  if (h.fillSearch) lines.push('    legs from the fill search over venue minimums');
  for (const v of h.venues) {
    if (v.used) continue;
    lines.push(
      `    ${v.exchangeId}: no leg; ${v.fresh ? 'fresh' : (v.notFreshBecause ?? 'not fresh')}, best ${num(v.bestPrice)}, age ${v.bookAgeMs ?? '-'} ms, rankMul ${num(v.rankMul)}${v.droppedBecause === null ? '' : `; dropped: leg under ${v.droppedBecause === 'min_amount' ? 'minAmount' : 'minCost'} (${rulesText(v.rules)})`}`,
    );
  }
  for (const l of h.legs) lines.push(...legText(l, h));
  return lines;
}

function legText(l: LegProof, h: HopProof): string[] {
  const lines = [
    `    leg ${l.exchangeId} (book seq ${l.bookSequence ?? '-'}, age ${l.bookAgeMs ?? '-'} ms): ${num(l.amount)} base for ${num(l.cost)}, avg ${num(l.averagePrice)}, fee ${num(l.fee)} = ${num(l.feeCost)}, effective ${num(l.effectivePrice)}; ${num(l.amountIn)} ${h.inAsset} -> ${num(l.amountOut)} ${h.outAsset}`,
    `      ranking: staleness ${num(l.staleness)}, rankMul ${num(l.rankMul)}, price ${num(l.rankingPrice)}${l.cap === null ? '' : `, cap ${num(l.cap)}${l.capLimited ? ' (reached)' : ''}`}`,
  ];
  if (l.rules !== null)
    lines.push(
      `      rules: ${rulesText(l.rules)}${l.steps === null ? '' : `; ${l.steps} whole steps`}${l.shapedBy === 'step' ? '; rounded down to a whole step' : l.shapedBy === 'max' ? '; cut at maxAmount' : ''}`,
    );
  for (const v of l.levels)
    lines.push(
      `      step ${v.step} level ${v.level}: ${num(v.base)} of ${num(v.available)} @ ${num(v.price)} = ${num(v.cost)}; running ${num(v.runningBase)} / ${num(v.runningCost)} (${v.stop})`,
    );
  return lines;
}

function rulesText(r: LegProof['rules']): string {
  if (r === null) return 'none';
  return `step ${num(r.amountStep)}, minAmount ${num(r.minAmount)}, minCost ${num(r.minCost)}, maxAmount ${num(r.maxAmount)}`;
}

function outcomeText(o: Outcome, asset: string): string {
  if (o.unroutableReason !== null && o.value === 0) return `unroutable (${o.unroutableReason})`;
  return `${num(o.value)} ${asset}, fill ${num(o.fillRatio)}, rate ${num(o.effectiveRate)}, ${bps(o.costBps)}`;
}

/** The constraint costs as text: the route, each strategy, each path, each active constraint. */
export function costsText(c: ConstraintCosts): string[] {
  const r = c.route;
  const lines = [
    `route: ${r.unroutableReason === null ? `${num(r.value)} ${c.valueAsset}, fill ${num(r.fillRatio)}, rate ${num(r.effectiveRate)}` : `unroutable (${r.unroutableReason})`}`,
    'strategies (positive bps: the alternative gives a better rate than the route):',
  ];
  for (const s of c.strategies)
    lines.push(`  ${s.name}${s.current ? ' (the route)' : ''}: ${outcomeText(s, c.valueAsset)}`);
  lines.push('paths:');
  for (const p of c.paths)
    lines.push(
      `  ${p.pairs.join(' -> ')}${p.chosen ? ' (chosen)' : ''}: ${outcomeText(p, c.valueAsset)}${p.score === null ? '' : `, score ${num(p.score)}`}`,
    );
  lines.push(c.constraints.length === 0 ? 'constraints: none active' : 'constraints (each lifted alone):');
  for (const k of c.constraints) lines.push(`  ${constraintLine(k, c.valueAsset)}`);
  return lines;
}

function constraintLine(k: Counterfactual, asset: string): string {
  if (k.costBps === null) return `${k.name}: without it nothing routes either (${k.unroutableReason})`;
  return `${k.name}: without it the route would give ${num(k.value)} ${asset} (fill ${num(k.fillRatio)}), a difference of ${bps(k.costBps)}`;
}

/** The decay as text: the same legs re-priced at each horizon. */
export function decayText(d: QuoteDecay): string[] {
  const lines = [`decay (the same legs re-priced later; quoted rate ${num(d.rate)}):`];
  for (const p of d.points)
    lines.push(
      `  +${p.afterMs / 1000} s: ${p.rate === null ? `not priced (${p.problem ?? 'unknown'})` : `rate ${num(p.rate)}, ${bps(p.bps)}`}`,
    );
  return lines;
}
