import { Inject, Injectable } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import type { JournalPositions } from '@app/journal';
import { EventLog, LogError } from '@app/log';
import { solve, watchSymbols, type RouteRequest, type RouteResult, type RoutingConfig } from '@app/routing';
import { Clock } from '../clock';
import { BookFeed } from '@app/feed';
import { QuoteJournal } from '@app/audit';
import { booksAt } from '@app/feed';
import { SERVER_CONFIG } from '../tokens';
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

/** A served REST answer: the exact text, already journalled (strict) or queued (batched). */
export type RestAnswer =
  | { readonly ok: true; readonly status: 200 | 404 | 501; readonly body: string }
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

  constructor(
    @Inject(BookFeed) private readonly feed: BookFeed,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(SERVER_CONFIG) config: ServerConfig,
    @Inject(QuoteJournal) private readonly journal: QuoteJournal,
    @Inject(EventLog) private readonly log: EventLog,
  ) {
    this.routing = config.routing;
  }

  /** Solve against the live cache at the service clock. */
  solveLive(request: RouteRequest): LiveSolve {
    const positions = this.positions();
    const result = solve({ request, books: this.feed.cache, now: this.clock.now(), config: this.routing });
    return { result, positions };
  }

  /** GET/POST /route: solve, serialise once, journal, and hand back the text to send. */
  async quote(params: RouteParams, requestId: string, asOf: number | null): Promise<RestAnswer> {
    const request: RouteRequest = { requestId, ...params };
    let solved: LiveSolve;
    if (asOf === null) solved = this.solveLive(request);
    else {
      const past = await this.solveAsOf(request, asOf);
      if (!past.ok) return past;
      solved = past;
    }
    const body = JSON.stringify(solved.result);
    const status = statusOf(solved.result);
    try {
      await this.journal.record({
        kind: 'rest',
        request: asOf === null ? request : { ...request, asOf },
        calculatedAt: solved.result.calculatedAt,
        positions: solved.positions,
        status,
        body,
      });
    } catch (e) {
      // A quote that could not be journalled is not served (strict mode, or a full queue while the
      // log refuses appends). The log's own message (file names) stays in the server's log.
      const why = e instanceof LogError ? e.code : e instanceof Error ? e.message : String(e);
      return { ok: false, status: 503, error: `quote journal unavailable: ${why}` };
    }
    return { ok: true, status, body };
  }

  /**
   * The books as they were at `asOf`, rebuilt from the log (docs/api.md "asOf"): the log's
   * position at that instant, then only the books the request can read. The instant is the clock.
   */
  private async solveAsOf(
    request: RouteRequest,
    asOf: number,
  ): Promise<(LiveSolve & { ok: true }) | { ok: false; status: 400; error: string }> {
    const at = await booksAt(
      this.log,
      this.positions(),
      asOf,
      this.clock.now(),
      new Set(watchSymbols(request)),
    );
    if (!at.ok) return { ok: false, status: 400, error: at.error };
    const { cache } = at;
    const result = solve({ request, books: cache, now: asOf, config: this.routing });
    return { ok: true, result, positions: at.positions };
  }

  private positions(): JournalPositions {
    const p = this.feed.positions();
    return { books: p.books ?? [], venues: p.venues ?? [] };
  }
}
