import { Inject, Injectable } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import { solve, type RouteRequest, type RouteResult, type RoutingConfig } from '@app/routing';
import { Clock } from '../clock';
import { BookFeed } from '../feed/book-feed';
import { SERVER_CONFIG } from '../tokens';

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

/** Solves a request against the live cache at the service clock. */
@Injectable()
export class RouteService {
  readonly routing: RoutingConfig;

  constructor(
    @Inject(BookFeed) private readonly feed: BookFeed,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(SERVER_CONFIG) config: ServerConfig,
  ) {
    this.routing = config.routing;
  }

  solve(request: RouteRequest): RouteResult {
    return solve({ request, books: this.feed.cache, now: this.clock.now(), config: this.routing });
  }
}
