import { hash } from 'node:crypto';
import type { JournalEntry, QuoteJournal } from '@app/audit';
import { turnEnd } from '../turn-end';
import type { ReceiptSigner } from './quote-receipt';

/**
 * The receipts of a turn's REST answers, made together once the turn's requests are solved (at
 * the turn's end, as every answer is written: turn-end.ts): each answer's hash, journal record and
 * leaf hash, then the signatures. Between two solves the signer's tables and the record encoder's
 * code are evicted from the core's caches, and the solver's books by them; in a row they stay warm
 * (BENCHMARKS.md "Receipts on /route").
 */
export class ReceiptBatch {
  constructor(
    private readonly journal: QuoteJournal,
    private readonly sign: ReceiptSigner,
  ) {}

  /** Journal the answer and sign its receipt; resolves once the record is queued (or appended, strict). */
  async receipt(entry: JournalEntry, bytes: Buffer): Promise<string> {
    await turnEnd();
    const sha256 = hash('sha256', bytes, 'buffer');
    const { leafHash, queued } = this.journal.recordBuilt({ ...entry, sha256 });
    // Signed once journalled (queued; strict: accepted by the log), as docs/audit.md says: a
    // refused record is a 503 with no receipt. The turn's answers resume here one after another,
    // so its hashes and records come first and its signatures after them, in a row.
    await queued;
    return this.sign(entry.request.requestId, sha256, bytes.length, entry.calculatedAt, leafHash);
  }
}
