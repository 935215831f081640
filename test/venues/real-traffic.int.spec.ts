import { afterEach, describe, it } from 'vitest';
import { CAPTURES_PRESENT } from './captures';
import { startIngestor } from './ingest-harness';
import { expectFolded, type CaptureProof } from './proof-kit';
import { REAL_TRAFFIC_VENUES } from './real-traffic-setups';
import { TRANSLATED_VENUES } from './translated-setups';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Start the venue's mock, run the real ccxt class through the Ingestor, compare with the fold. */
async function foldsLikeTheCapture(venue: CaptureProof): Promise<void> {
  const proof = await venue.start();
  const { ingestor, sink } = startIngestor(proof.venues, proof.extra);
  proof.attach?.(sink);
  cleanups.push(
    () => proof.mock.close(),
    () => ingestor.stop(),
  );
  await expectFolded(sink, proof);
}

/**
 * Real-traffic proofs (docs/venues.md "Proof on real traffic"): a mock venue serves a recorded
 * capture, as recorded, whose channel and message shapes are the ones the pinned ccxt class
 * speaks; the real class runs through the Ingestor, and the books folded from its records equal
 * an independent fold of the capture.
 */
describe.skipIf(!CAPTURES_PRESENT)('venues proven on real recorded traffic', () => {
  for (const venue of REAL_TRAFFIC_VENUES)
    it(`${venue.exchangeId}: ${venue.capture}`, () => foldsLikeTheCapture(venue));
});

/**
 * Translated frames: captures recorded in an older protocol, their content reshaped to what the
 * pinned ccxt class speaks (each case says what). Parser coverage with real content, not proof
 * that the venue speaks this way today.
 */
describe.skipIf(!CAPTURES_PRESENT)('venues on translated frames of recorded traffic', () => {
  for (const venue of TRANSLATED_VENUES)
    it(`${venue.exchangeId}: ${venue.capture}; translated: ${venue.translated}`, () =>
      foldsLikeTheCapture(venue));
});
