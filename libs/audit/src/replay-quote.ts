import { jsonDiff, recordedRouting, type JsonChange, type QuoteRecord } from '@app/journal';
import type { EventLog } from '@app/log';
import { SOLVER_VERSION, solve, watchSymbols, type SolveInput, type RouteResult } from '@app/routing';
import { sha256Hex } from './sha256';
import { rebuildBooks, type RebuildStats } from '@app/feed';

export type Solve = (input: SolveInput) => RouteResult;

export interface QuoteReplay {
  /** The recomputed response text (JSON.stringify of the result, as the API sends it). */
  readonly body: string;
  readonly sha256: string;
  readonly identical: boolean;
  /** Field-level differences from the stored response (empty when identical or nothing stored). */
  readonly diff: JsonChange[];
  /** Problems with the record itself or the replay's inputs, worth telling an auditor. */
  readonly notes: string[];
  readonly stats: RebuildStats;
}

/**
 * Recompute a journalled quote: rebuild the books its candidate paths could read at the recorded
 * log positions, solve with the recorded clock and configuration, and compare response hashes.
 * `solveFn` is the solver under test (the current one by default).
 */
export async function replayQuote(
  log: EventLog,
  record: QuoteRecord,
  solveFn: Solve = solve,
  solverVersion = SOLVER_VERSION,
): Promise<QuoteReplay> {
  // asOf is not a solver input: the recorded positions and clock already are that instant.
  const { asOf: _asOf, ...request } = record.request;
  const symbols = new Set(watchSymbols(request));
  const { cache, stats } = await rebuildBooks(log, record.positions, symbols);
  const result = solveFn({
    request,
    books: cache,
    now: record.calculatedAt,
    config: recordedRouting(record),
  });
  const body = JSON.stringify(result);
  const sha256 = sha256Hex(body);
  const identical = sha256 === record.responseSha256;
  const notes: string[] = [];
  if (record.config.solverVersion !== solverVersion)
    notes.push(`recorded with solver ${record.config.solverVersion}, replayed with ${solverVersion}`);
  if (record.response !== null && sha256Hex(JSON.stringify(record.response)) !== record.responseSha256) {
    notes.push(
      'the stored response does not match the recorded hash: the record was altered after it was written',
    );
  }
  let diff: JsonChange[] = [];
  if (!identical) {
    if (record.response === null)
      notes.push('the record stores no response (storeResponses off): only the hashes can be compared');
    else diff = jsonDiff(record.response, JSON.parse(body));
  }
  return { body, sha256, identical, diff, notes, stats };
}

/** Human-readable diff lines: `path: recorded -> replayed`. */
export function formatDiff(diff: readonly JsonChange[], max = 50): string[] {
  const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));
  const lines = diff.slice(0, max).map((d) => `  ${d.path}: ${show(d.expected)} -> ${show(d.actual)}`);
  if (diff.length > max) lines.push(`  ... and ${diff.length - max} more`);
  return lines;
}
