import { hash } from 'node:crypto';
import type { JournalEntry, QuoteJournal } from '@app/audit';
import type { ReceiptSigner } from './quote-receipt';

interface Job {
  readonly entry: JournalEntry;
  /** The answer's bytes as sent. */
  readonly bytes: Buffer;
  readonly resolve: (receipt: string) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * The receipts of a turn's REST answers, made together once the turn's requests are solved: each
 * answer's hash, journal record, leaf hash and signature. Between two solves the signer's tables
 * and the record encoder's code are evicted from the core's caches, and the solver's books by
 * them; in a row they stay warm (BENCHMARKS.md "Receipts on /route").
 */
export class ReceiptBatch {
  private jobs: Job[] = [];
  private due: NodeJS.Immediate | null = null;

  constructor(
    private readonly journal: QuoteJournal,
    private readonly sign: ReceiptSigner,
  ) {}

  /** Journal the answer and sign its receipt; resolves once the record is queued (or appended, strict). */
  receipt(entry: JournalEntry, bytes: Buffer): Promise<string> {
    return new Promise((resolve, reject) => {
      this.jobs.push({ entry, bytes, resolve, reject });
      this.due ??= setImmediate(() => this.run());
    });
  }

  private run(): void {
    this.due = null;
    const jobs = this.jobs;
    this.jobs = [];
    for (const { entry, bytes, resolve, reject } of jobs) {
      try {
        const sha256 = hash('sha256', bytes, 'buffer');
        const { leafHash, queued } = this.journal.recordBuilt({ ...entry, sha256 });
        const { requestId } = entry.request;
        // Signed once journalled (queued; strict: accepted by the log), as docs/audit.md says: a
        // refused record is a 503 with no receipt. The batch's signatures still run in a row, in
        // the microtasks after this loop (strict: after the append that took the batch).
        queued
          .then(() => this.sign(requestId, sha256, bytes.length, entry.calculatedAt, leafHash))
          .then(resolve, reject);
      } catch (e) {
        reject(e);
      }
    }
  }
}
