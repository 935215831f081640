/**
 * What specs share (import it as '@test/support'): the fixed clock and record builders, one
 * waitFor, temp directories, the seeded generators of synthetic records (from @app/synth), and
 * the demo recording folded into a book cache.
 */
export { T0, book, market, venue } from './records';
export { waitFor } from './wait-for';
export { tempDir } from './temp-dir';
export { decimal, isWholeMultiple, sumsExactly, type Decimal } from './decimal';
export { bookRecords, listingRecords, seeded, toEntries, type StreamSpec } from '@app/synth';
export { CHROMIUM, launchChromium } from './browser';
export { cutFold, stateHashes, versionedFold } from './versioned-fold';
export { messyLog } from './messy-log';
export { demoRecording } from './demo-recording';
