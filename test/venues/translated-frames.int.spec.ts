import { afterEach, describe, it } from 'vitest';
import { CAPTURES_PRESENT } from './captures';
import { startIngestor } from './ingest-harness';
import { expectFolded } from './proof-kit';
import { TRANSLATED_VENUES } from './translated-setups';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * Translated frames (docs/venues.md "Proof on real traffic"): captures recorded in an older
 * protocol, their content reshaped to what the pinned ccxt class speaks. The real class parses
 * them through the Ingestor into the same books as an independent fold of the capture. This is
 * parser coverage with real content, not proof that the venue speaks this way today.
 */
describe.skipIf(!CAPTURES_PRESENT)('venues on translated frames of recorded traffic', () => {
  for (const venue of TRANSLATED_VENUES) {
    it(`${venue.exchangeId}: ${venue.capture}; translated: ${venue.translated}`, async () => {
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
