import { errorMessage } from '@app/retry';
import { Inject, Injectable } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import type { JournalPositions } from '@app/journal';
import { EventLog, LogError } from '@app/event-log';
import {
  solve,
  watchSymbols,
  type RouteRequest,
  type RouteResult,
  type RoutingConfig,
  type SolveInput,
} from '@app/routing';
import { Clock } from '../clock';
import { BookFeed } from '@app/live-feed';
import { QuoteJournal, type JournalEntry } from '@app/audit';
import { booksAt } from '@app/history';
import { RECEIPT_KEYS, SERVER_CONFIG } from '../tokens';
import type { ReceiptKeys } from '../receipts/key-store';
import { ReceiptBatch } from '../receipts/receipt-batch';
import { receiptSigner } from '../receipts/quote-receipt';
import { turnEnd } from '../turn-end';
import { utf8Bytes } from './utf8-bytes';
import type { RouteParams } from '@app/request';

/** HTTP status of a route result (spec 2.6, 7): only the two request-level refusals are errors. */
export function statusOf(result: RouteResult): 200 | 404 | 501 {
  switch (result.unroutableReason) {
    case 'no_market':
      return 404;
    case 'exact_out_multi_hop_unsupported':
      return 501;
    case 'no_venues_matched_filter':
    case 'all_books_stale':
    case 'no_liquidity':
    case 'insufficient_depth':
    case 'insufficient_balance':
    case null:
      return 200;
  }
}

/**
 * A served REST answer: the exact bytes, already journalled (strict) or queued (batched), and
 * their signed receipt (the x-quote-receipt header) when RECEIPTS=true.
 */
export type RestAnswer =
  | { readonly ok: true; readonly status: 200 | 404 | 501; readonly body: Buffer; readonly receipt?: string }
  | { readonly ok: false; readonly status: 400 | 503; readonly error: string };

/** A live solve and the cache position it read, taken in the same synchronous turn. */
export interface LiveSolve {
  readonly result: RouteResult;
  readonly positions: JournalPositions;
}

/** Solves requests against the live cache (or the log at a past instant) and journals each answer. */
@Injectable()
export class RouteService {
  readonly routing: RoutingConfig;
  /** RECEIPTS=true: what journals and signs each answer's receipt. */
  private readonly receipts: ReceiptBatch | null;

  constructor(
    @Inject(BookFeed) private readonly feed: BookFeed,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(SERVER_CONFIG) config: ServerConfig,
    @Inject(QuoteJournal) private readonly journal: QuoteJournal,
    @Inject(EventLog) private readonly log: EventLog,
    @Inject(RECEIPT_KEYS) keys: ReceiptKeys,
  ) {
    this.routing = config.routing;
    this.receipts = config.receipts.attach ? new ReceiptBatch(journal, receiptSigner(keys.key)) : null;
  }

  /** Solve against the live cache at the service clock. */
  solveLive(request: RouteRequest): LiveSolve {
    const positions = this.positions();
    const result = solve({
      request,
      books: this.feed.routable(),
      now: this.clock.now(),
      config: this.routing,
    });
    return { result, positions };
  }

  /** GET/POST /route: solve, serialise once, journal, and hand back the text to send. */
  async quote(params: RouteParams, requestId: string, asOf: number | null): Promise<RestAnswer> {
    const request: RouteRequest = { requestId, ...params };
    const snap = await this.snapshot(request, asOf);
    if (!snap.ok) return snap;
    const result = solve(snap.input);
    const body = JSON.stringify(result);
    // Encoded once: these bytes are sent as they are, and the journal hashes and measures them
    // instead of encoding the 15 KB text again for each.
    const bytes = utf8Bytes(body);
    if (this.receipts === null) {
      // Journalled and written after the turn's other requests are solved: the solver's books and
      // the write path's code each stay in the core's caches for a run of requests instead of
      // evicting each other at every one (about a quarter of a route's CPU; BENCHMARKS.md "Answers
      // at the turn's end"). A receipt's answer waits the same way (receipt-batch.ts).
      await turnEnd();
      const journalled = await this.journalRest(request, asOf, result, snap.positions, body, bytes);
      return journalled ?? { ok: true, status: statusOf(result), body: bytes };
    }
    try {
      const entry = restEntry(request, asOf, result, snap.positions, body, bytes);
      const receipt = await this.receipts.receipt(entry, bytes);
      return { ok: true, status: entry.status, body: bytes, receipt };
    } catch (e) {
      return unjournalled(e);
    }
  }

  /**
   * What a request is solved on: the live cache at the service clock, or the books rebuilt from
   * the log at `asOf` (docs/api.md "asOf") with `asOf` as the clock; and the log position it read.
   * The live cache and its position are taken in one synchronous turn, so the solve that follows
   * in that turn reads exactly them.
   */
  async snapshot(
    request: RouteRequest,
    asOf: number | null,
  ): Promise<
    { ok: true; input: SolveInput; positions: JournalPositions } | { ok: false; status: 400; error: string }
  > {
    if (asOf === null)
      return {
        ok: true,
        input: { request, books: this.feed.routable(), now: this.clock.now(), config: this.routing },
        positions: this.positions(),
      };
    const at = await booksAt(
      this.log,
      this.positions(),
      asOf,
      this.clock.now(),
      new Set(watchSymbols(request)),
    );
    if (!at.ok) return { ok: false, status: 400, error: at.error };
    return {
      ok: true,
      input: { request, books: at.view, now: asOf, config: this.routing },
      positions: at.positions,
    };
  }

  /**
   * Journal a REST answer; null once written (or queued), else the 503 to send instead: a quote
   * that could not be journalled is not served (strict mode, or a full queue while the log
   * refuses appends). The log's own message (file names) stays in the server's log.
   */
  async journalRest(
    request: RouteRequest,
    asOf: number | null,
    result: RouteResult,
    positions: JournalPositions,
    body: string,
    bytes?: Buffer,
  ): Promise<{ ok: false; status: 503; error: string } | null> {
    try {
      await this.journal.record(restEntry(request, asOf, result, positions, body, bytes));
      return null;
    } catch (e) {
      return unjournalled(e);
    }
  }

  private positions(): JournalPositions {
    const p = this.feed.positions();
    return { books: p.books ?? [], venues: p.venues ?? [] };
  }
}

/** The 503 of a quote the journal refused: the log's own message (file names) stays in the server's log. */
function unjournalled(e: unknown): { ok: false; status: 503; error: string } {
  const why = e instanceof LogError ? e.code : errorMessage(e);
  return { ok: false, status: 503, error: `quote journal unavailable: ${why}` };
}

/** The journal entry of a REST answer (`asOf` kept in the request when the client asked for one). */
function restEntry(
  request: RouteRequest,
  asOf: number | null,
  result: RouteResult,
  positions: JournalPositions,
  body: string,
  bytes?: Buffer,
): JournalEntry & { readonly status: 200 | 404 | 501 } {
  return {
    kind: 'rest',
    request: asOf === null ? request : { ...request, asOf },
    calculatedAt: result.calculatedAt,
    positions,
    status: statusOf(result),
    body,
    ...(bytes === undefined ? {} : { bytes }),
  };
}
