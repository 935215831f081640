import { jsonDiff, recordedRouting, type JsonChange, type QuoteRecord } from '@app/journal';
import type { EventLog } from '@app/event-log';
import { SOLVER_VERSION, solve, watchSymbols, type SolveInput, type RouteResult } from '@app/routing';
import { sha256Hex } from './sha256';
import { rebuildBooks, type RebuildStats, type Rebuilt } from '@app/history';

export type Solve = (input: SolveInput) => RouteResult;

/** What a replay compares with, besides the record: the solver under test and the client's copy. */
export interface ReplayQuoteOptions {
  /** The solver under test (the current one by default) and the version it reports. */
  readonly solve?: Solve;
  readonly solverVersion?: string;
  /**
   * The response text as the client received it (for records that do not store the response):
   * used for the field diff once its SHA-256 matches the record's; one trailing newline is ignored.
   */
  readonly received?: string;
}

/** What the field diff was computed against: the stored response, the client's copy, or nothing. */
export type DiffBasis = 'stored' | 'received' | null;

export interface QuoteReplay {
  /** The recomputed response text (JSON.stringify of the result, as the API sends it). */
  readonly body: string;
  readonly sha256: string;
  /** UTF-8 length of `body` (the record holds the original's, `responseBytes`). */
  readonly bytes: number;
  readonly identical: boolean;
  /** Field-level differences from the original response (empty when identical or none at hand). */
  readonly diff: JsonChange[];
  /** The original response the diff was taken against; null when neither was available. */
  readonly diffBasis: DiffBasis;
  /** Problems with the record itself or the replay's inputs, worth telling an auditor. */
  readonly notes: string[];
  readonly stats: RebuildStats;
}

/** The solver input of a journalled quote, as rebuilt from the log, and what the rebuild read. */
export interface ReplayInput {
  readonly input: SolveInput;
  readonly stats: RebuildStats;
  /** The rebuild itself (its cache, and the listings withheld for a lost market or venue record). */
  readonly rebuilt: Rebuilt;
}

/**
 * Rebuild the snapshot a journalled quote was solved on: the books its candidate paths could read
 * at the recorded log positions, the recorded request, clock and routing configuration. Every
 * replay (quote, explain, compare) solves exactly this input.
 */
export async function replayInput(
  log: EventLog,
  record: QuoteRecord,
  repairLost = false,
): Promise<ReplayInput> {
  // asOf is not a solver input (the recorded clock is that instant) but the versioned read of the
  // log below the recorded positions (docs/replay.md "The books at an instant").
  const { asOf, ...request } = record.request;
  const symbols = new Set(watchSymbols(request));
  const rebuilt = await rebuildBooks(log, record.positions, symbols, {
    ...(asOf === undefined ? {} : { asOf }),
    repairLost,
  });
  return {
    input: { request, books: rebuilt.view, now: record.calculatedAt, config: recordedRouting(record) },
    stats: rebuilt.stats,
    rebuilt,
  };
}

/**
 * Recompute a journalled quote: rebuild the books its candidate paths could read at the recorded
 * log positions, solve with the recorded clock and configuration, and compare response hashes.
 */
export async function replayQuote(
  log: EventLog,
  record: QuoteRecord,
  options: ReplayQuoteOptions = {},
): Promise<QuoteReplay> {
  const solverVersion = options.solverVersion ?? SOLVER_VERSION;
  const { input, stats, rebuilt } = await replayInput(log, record);
  const solver = options.solve ?? solve;
  let body = JSON.stringify(solver(input));
  let sha256 = sha256Hex(body);
  let identical = sha256 === record.responseSha256;
  const notes: string[] = [];
  if (!identical && rebuilt.gaps.length > 0) {
    // Served before damage destroyed a market or venue record it used: try the copies written
    // again after the damage (docs/operations-log.md "A lost market or venue record").
    const { input: repaired, rebuilt: second } = await replayInput(log, record, true);
    const repairs = second.repairs;
    if (repairs.length > 0) {
      const again = JSON.stringify(solver(repaired));
      const same = sha256Hex(again) === record.responseSha256;
      for (const r of repairs)
        notes.push(
          `the market record of ${r.listing.replace('|', ' ')} below the recorded position was lost to damage (venues/${r.partition} offsets ${r.gap.from}..${r.gap.to - 1} unreadable); ${same ? 'replayed with' : 'the response is not reproduced with'} the copy written again at venues/${r.partition}@${r.copiesAt.join(',')}`,
        );
      if (same) {
        body = again;
        sha256 = record.responseSha256;
        identical = true;
      }
    }
  }
  if (record.config.solverVersion !== solverVersion)
    notes.push(`recorded with solver ${record.config.solverVersion}, replayed with ${solverVersion}`);
  const original = originalResponse(record, options.received, notes);
  let diff: JsonChange[] = [];
  if (!identical && original.value !== undefined) diff = jsonDiff(original.value, JSON.parse(body));
  return {
    body,
    sha256,
    bytes: Buffer.byteLength(body, 'utf8'),
    identical,
    diff,
    diffBasis: original.basis,
    notes,
    stats,
  };
}

/** The original response to diff against: the client's copy once its hash checks out, else the stored one. */
function originalResponse(
  record: QuoteRecord,
  received: string | undefined,
  notes: string[],
): { value?: unknown; basis: DiffBasis } {
  if (received !== undefined) {
    const text = sha256Hex(received) === record.responseSha256 ? received : received.replace(/\r?\n$/, '');
    const hash = sha256Hex(text);
    if (hash === record.responseSha256) return { value: JSON.parse(text) as unknown, basis: 'received' };
    notes.push(
      `the response file is not the journalled response: its sha256 ${hash} differs from the recorded ${record.responseSha256}, so it is not used for the diff`,
    );
  }
  if (record.response === null) return { basis: null };
  if (sha256Hex(JSON.stringify(record.response)) !== record.responseSha256) {
    notes.push(
      'the stored response does not match the recorded hash: the record was altered after it was written',
    );
  }
  return { value: record.response, basis: 'stored' };
}

/** Human-readable diff lines: `path: recorded -> replayed`. */
export function formatDiff(diff: readonly JsonChange[], max = 50): string[] {
  const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));
  const lines = diff.slice(0, max).map((d) => `  ${d.path}: ${show(d.expected)} -> ${show(d.actual)}`);
  if (diff.length > max) lines.push(`  ... and ${diff.length - max} more`);
  return lines;
}
