import { describe, expect, it } from 'vitest';
import type { VenueCtx } from './hop-context';
import { leanMerged } from './merged-lean';
import { MergedRuledWalk } from './merged-ruled';
import { isRuledFill, type RuledFill } from './ruled-leg';
import type { Fill, WalkSpec } from './walk';
import { demoHops, scenarioHops, type Hop } from '../test/merged-hops';

// The lean merged walk (merged-lean.ts) answers quotes; merged-ruled.ts's walk answers proofs and
// the fill search. Over the same hops as parked-legs.int.spec.ts (the demo recording's 60 venues
// with real-like order rules, from dust-prone to deep amounts, some venues funded, and 300 small
// ruled scenarios, each also with the venues funded just above the legs they take), the two give the same legs to the last bit (amount, cost, whole steps, whether
// funds stopped each) and the same fullness; and of a walk that ended short, the same answer to
// whether a drop or a leg stopped for a whole step did it, which sends split_optimal to its fill search.

interface Walked {
  readonly legs: unknown[];
  readonly full: boolean;
  readonly short: boolean;
  /** Whether one more step would have fitted, per leg. */
  readonly fits: boolean[];
}

const legOf = (f: Fill): unknown => ({
  venue: f.venue.exchangeId,
  base: f.base,
  cost: f.cost,
  capLimited: f.capLimited,
  steps: isRuledFill(f) ? f.steps : null,
});

/** merged-ruled.ts's walk as executableMerged drives it without a proof. */
function reference(venues: readonly VenueCtx[], spec: WalkSpec, caps: number[]): Walked {
  const walk = new MergedRuledWalk(venues, spec, caps);
  walk.walk();
  let dropped = false;
  while (walk.dropAndWalk()) dropped = true;
  walk.finish();
  const { fills, full } = walk.result();
  let short = dropped;
  if (!full && !short) {
    const fits = walk.fitStops();
    if (fits !== null) short = fits;
    else {
      const all = new MergedRuledWalk(venues, spec, caps, { visitAll: true });
      all.walk();
      all.finish();
      short = all.fitStops() === true;
    }
  }
  return { legs: fills.map(legOf), full, short, fits: fills.map((f) => (f as RuledFill).fitStopped) };
}

/**
 * The hop again with each venue that took a leg funded just above that leg (what it spends, plus
 * a millionth of it or a hair): the walk then reaches it again with almost no funds left, where
 * the funds, not the amount, may stop it (balanceLimited).
 */
function fundedToLegs(h: Hop, legs: readonly Fill[], more: (spent: number) => number): Hop {
  const caps = h.venues.map((venue) => {
    const leg = legs.find((l) => l.venue === venue);
    if (leg === undefined) return Infinity;
    const spent = h.spec.side === 'buy' ? leg.cost * (1 + venue.fee) : leg.base;
    return spent + more(spent);
  });
  return { ...h, label: `${h.label}, funded to its legs`, caps };
}

describe('the lean merged walk gives the legs of the merged walk with rules', () => {
  const sets: [string, () => Hop[]][] = [
    ['the demo recording', demoHops],
    ['the small ruled scenarios', () => scenarioHops(300)],
  ];
  for (const [name, hopsOf] of sets)
    it(`${name}: the same legs, fullness and shortness, whether the walk is long or short`, () => {
      const hops = hopsOf().filter((h) => h.venues.length > 0);
      for (const h of hops.slice()) {
        if (h.caps.some((c) => c !== Infinity)) continue;
        const walk = new MergedRuledWalk(h.venues, h.spec, h.caps);
        walk.walk();
        const { fills } = walk.result();
        walk.finish();
        hops.push(
          fundedToLegs(h, fills, (spent) => spent * 1e-6),
          fundedToLegs(h, fills, (spent) => spent * 1e-13),
        );
      }
      let capped = 0;
      let walkedLean = 0;
      let short = 0;
      let endedShort = 0;
      for (const h of hops) {
        const ref = reference(h.venues, h.spec, h.caps);
        // Every walk, long or short (0: never left to merged-ruled.ts), and as quotes take it.
        for (const shortWalk of [0, undefined]) {
          const lean = leanMerged(h.venues, h.spec, h.caps, shortWalk);
          if (lean === null) {
            // Only a walk within a few first levels is left to merged-ruled.ts: never when forced.
            expect(shortWalk, h.label).toBeUndefined();
            continue;
          }
          if (shortWalk === undefined) walkedLean++;
          expect(lean.fills.map(legOf), h.label).toEqual(ref.legs);
          expect(lean.full, h.label).toBe(ref.full);
          // Read only of a walk that ended short (strategies-rules.ts).
          if (!ref.full) {
            expect(lean.short, h.label).toBe(ref.short);
            expect(
              lean.fills.map((f) => f.fitStopped),
              h.label,
            ).toEqual(ref.fits);
          }
        }
        if (ref.short) short++;
        if (
          h.caps.some((c) => c !== Infinity) &&
          ref.legs.some((l) => (l as { capLimited: boolean }).capLimited)
        )
          capped++;
        if (!ref.full) endedShort++;
      }
      // The sets reach what they are here for: deep walks quotes take the lean way, walks that
      // drop venues or stop for a step, and walks that end short of their amount.
      expect(walkedLean).toBeGreaterThan(0);
      expect(short).toBeGreaterThan(0);
      expect(endedShort).toBeGreaterThan(0);
      expect(capped).toBeGreaterThan(0);
    });
});
