import { afterEach, describe, it } from 'vitest';
import { CAPTURES_PRESENT } from './captures';
import { startIngestor } from './ingest-harness';
import { expectFolded } from './proof-kit';
import { REAL_TRAFFIC_VENUES } from './real-traffic-setups';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * Real-traffic proofs (docs/venues.md "Proof on real traffic"): a mock venue serves a recorded
 * capture whose channel and message shapes are the ones the pinned ccxt class speaks; the real
 * class runs through the Ingestor, and the books folded from its records equal an independent
 * fold of the capture.
 */
describe.skipIf(!CAPTURES_PRESENT)('venues proven on real recorded traffic', () => {
  for (const venue of REAL_TRAFFIC_VENUES) {
    it(`${venue.exchangeId}: ${venue.capture}`, async () => {
      const proof = await venue.start();
      const { ingestor, sink } = startIngestor(proof.venues, proof.extra);
      proof.attach?.(sink);
      cleanups.push(
        () => proof.mock.close(),
        () => ingestor.stop(),
      );
      await expectFolded(sink, proof);
    });
  }
});
