import { describe, expect, it } from 'vitest';
import type { VenueCtx } from './hop-context';
import { MergedRuledWalk } from './merged-ruled';
import { isRuledFill } from './ruled-leg';
import { recordWalks, type WalkSpec, type WalkTape } from './walk';
import { demoHops, scenarioHops, type Hop } from '../test/merged-hops';

// A merged rule-aware walk sets aside the legs that would take nothing of the dust left near the
// end of a hop, and settles them when the walk is over (parked-legs.ts). Against the same walk
// reaching every venue and leg in turn (visitAll), over the demo recording's books (60 venues
// with real-like order rules, where 1,000,000 USDT leaves dust after many drops) and the small
// ruled scenarios: the same legs to the last bit (amount, cost, steps, the rule that shaped each,
// whether one more step would have fitted), the same venues dropped and why, the same fullness,
// and with a proof recording the very same walk tape.

interface Walked {
  readonly fills: unknown[];
  readonly full: boolean;
  readonly dropped: (string | null)[];
  readonly fitStops: boolean | null;
  readonly tape: unknown[] | null;
}

/** The merged walk as split_optimal drives it (strategies-rules.ts), and everything it tells. */
function walked(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  caps: number[],
  visitAll: boolean,
  proof: boolean,
): Walked {
  const tape: WalkTape | null = proof ? [] : null;
  recordWalks(tape);
  try {
    const walk = new MergedRuledWalk(venues, spec, caps, { visitAll });
    walk.walk();
    while (walk.dropAndWalk());
    walk.finish();
    const dropped = walk.dropped();
    const result = walk.result();
    const fits = walk.fitStops();
    return {
      fills: result.fills.map((f) => ({
        venue: f.venue.exchangeId,
        base: f.base,
        cost: f.cost,
        capLimited: f.capLimited,
        ...(isRuledFill(f) ? { steps: f.steps, rule: f.rule, fitStopped: f.fitStopped } : {}),
      })),
      full: result.full,
      dropped: venues.map((v) => dropped.get(v) ?? null),
      // A walk that passed venues by cannot always tell; one that reached them all always can.
      fitStops: fits,
      tape: tape?.map((e) => (typeof e === 'number' ? e : e.venue.exchangeId)) ?? null,
    };
  } finally {
    recordWalks(null);
  }
}

/** A leg's amounts alone. */
function amounts(fill: unknown): unknown {
  const { rule: _rule, fitStopped: _fit, ...rest } = fill as Record<string, unknown>;
  return rest;
}

describe('a merged walk that sets aside the legs taking nothing walks as one that reaches every leg', () => {
  const sets: [string, () => Hop[]][] = [
    ['the demo recording', demoHops],
    ['the small ruled scenarios', () => scenarioHops(300)],
  ];
  for (const [name, hopsOf] of sets)
    it(`${name}: the same legs, drops and fullness, and with a proof the same tape`, () => {
      const hops = hopsOf().filter((h) => h.venues.length > 0);
      let settledShort = 0;
      let dropped = 0;
      for (const h of hops)
        for (const proof of [false, true]) {
          const reference = walked(h.venues, h.spec, h.caps, true, proof);
          const parked = walked(h.venues, h.spec, h.caps, false, proof);
          // A leg's rule and whether one more step would have fitted are read by proofs, and by a
          // walk that ended short; a full walk recording no proof leaves a leg set aside as it was.
          const told = proof || !parked.full;
          expect(told ? parked.fills : parked.fills.map(amounts), `${h.label} (proof: ${proof})`).toEqual(
            told ? reference.fills : reference.fills.map(amounts),
          );
          expect(parked.full, h.label).toBe(reference.full);
          expect(parked.tape, h.label).toEqual(reference.tape);
          // Which venues were dropped is told to proofs only: a walk recording none may skip the
          // drops that cannot change its legs (settles), and then passes those venues by.
          if (proof) expect(parked.dropped, h.label).toEqual(reference.dropped);
          // Asked only of a walk that ended short (strategies-rules.ts).
          if (!parked.full && parked.fitStops !== null && reference.fitStops !== null)
            expect(parked.fitStops, h.label).toBe(reference.fitStops);
          if (!parked.full) settledShort++;
          if (parked.dropped.some((d) => d !== null)) dropped++;
        }
      // The sets reach what they are here for: walks ending short, and walks that drop venues.
      expect(settledShort).toBeGreaterThan(0);
      expect(dropped).toBeGreaterThan(0);
    });
});
