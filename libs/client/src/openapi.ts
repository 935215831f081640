/*
 * Generated from the service's OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with `npm run client:generate`; test/docs/client.int.spec.ts fails when this file
 * differs from what the document generates.
 */
/* eslint-disable */
export interface paths {
  '/route': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Quote a conversion
     * @description Solves the conversion over the cached books (or those of a past instant with asOf) and journals the result. Lists are comma-separated; an explicitly empty bridges or exchanges means none.
     */
    get: operations['getRoute'];
    put?: never;
    /**
     * Quote a conversion (JSON body)
     * @description The same as GET /route with the parameters in a JSON object (recommended for balances). Query parameters are refused (400).
     */
    post: operations['postRoute'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/orderbook/{exchange}/{symbol}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A cached order book (symbol URL-encoded: BTC%2FUSDT) */
    get: operations['getOrderBook'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/orderbook/{exchange}/{base}/{quote}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The same book with the slash unencoded (/orderbook/sim00/BTC/USDT) */
    get: operations['getOrderBookByPair'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/symbols': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Symbols that can route now */
    get: operations['getSymbols'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/exchanges/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Connection state per venue */
    get: operations['getExchangesStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness and readiness */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This document (OpenAPI 3.1) */
    get: operations['getOpenApi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/asyncapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The stream (GET /stream/route) in AsyncAPI 3.0 */
    get: operations['getAsyncApi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/docs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The interactive reference (one self-contained HTML page) */
    get: operations['getDocs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description One venue filling part of a hop. Legs are listed by amount descending, ties by exchangeId. */
    Leg: {
      /** @description Venue id. */
      exchangeId: string;
      /** @description Base units this venue fills. */
      amount: number;
      /** @description Raw cost per base unit over the levels taken, before fees (quote per base). */
      averagePrice: number;
      /** @description The venue's taker fee rate for this market. */
      takerFeeRate: number;
      /** @description Fee paid on this leg, in the quote currency. */
      feeCost: number;
      /** @description averagePrice with the fee: times (1+fee) on a buy, (1-fee) on a sell. */
      effectivePrice: number;
      /** @description Present only when balances were supplied: true when the venue's funds, not the book, stopped it. */
      balanceLimited?: boolean;
    };
    /** @description One venue's quote for the whole hop, shown when includeQuotes is on. */
    Quote: {
      /** @description Venue id. */
      exchangeId: string;
      /**
       * @description buy: the hop spends the quote asset; sell: it spends the base asset.
       * @enum {string}
       */
      side: 'buy' | 'sell';
      /** @description The hop's pinned amount. */
      requestedAmount: number;
      /** @description How much of it this venue alone could fill (0 when its book is missing). */
      filledAmount: number;
      /** @description Null when nothing filled. */
      averagePrice: number | null;
      /** @description Null when nothing filled. */
      effectivePriceWithFee: number | null;
      /** @description The venue's taker fee rate. */
      takerFeeRate: number;
      /** @description True when this venue alone fills the whole hop. */
      fullyFillable: boolean;
      /** @description Null for a venue that lists the market but whose book never arrived. */
      bookAgeMs: number | null;
    };
    /** @description One hop of the route over one market. */
    Hop: {
      /** @description Unified symbol of the market, BASE/QUOTE. */
      pair: string;
      /**
       * @description buy: the hop spends the quote asset; sell: it spends the base asset.
       * @enum {string}
       */
      side: 'buy' | 'sell';
      /** @description Base asset of the market. */
      base: string;
      /** @description Quote asset of the market. */
      quote: string;
      /** @description What the hop spends (quote on a buy, base on a sell). */
      amountIn: number;
      /** @description What the hop delivers. */
      amountOut: number;
      /** @description Venues used, largest first. */
      legs: components['schemas']['Leg'][];
      /** @description Fees of all legs, in the quote currency. */
      feeCost: number;
      /** @description Always the quote asset of the market. */
      feeCurrency: string;
      /** @description True when the legs fill the pinned amount of this hop. */
      fullyFillable: boolean;
      /** @description Null when no fresh permitted venue has a level on that side. */
      referencePrice: number | null;
      /** @description Null without a reference. */
      impactBps: number | null;
      /** @description Venues listing the market after the filters. */
      venueCount: number;
      /** @description Of those, venues with a fresh, in-sync book. */
      freshVenueCount: number;
      /** @description Present only when includeQuotes is on: one per listed venue. */
      quotes?: components['schemas']['Quote'][];
    };
    /** @description A candidate path: the direct market, then one per bridge in the order of bridges. */
    PathConsidered: {
      /** @description The markets of the path, in order. */
      pairs: string[];
      /** @description Null for the direct market. */
      bridge: string | null;
      /** @description What the path delivers (0 when it failed). */
      amountOut: number;
      /** @description True when the path fills the whole amount. */
      fullyFillable: boolean;
      /** @description amountOut * (1 - hopPenaltyBps/10000)^(hops-1); the highest wins (0 when it failed). */
      score: number;
      /** @description True for the path the result follows. */
      chosen: boolean;
    };
    /** @description A quoted route (or why there is none), with the request settings it used. */
    RouteResult: {
      /** @description The request's x-request-id (or a minted UUID); on the stream a fresh UUID per frame. */
      requestId: string;
      /** @description The clock of the computation, epoch ms (asOf when given). */
      calculatedAt: number;
      /**
       * Format: date-time
       * @description calculatedAt as an ISO-8601 UTC time.
       */
      calculatedAtIso: string;
      /** @description Asset spent (upper-cased). */
      from: string;
      /** @description Asset received (upper-cased). */
      to: string;
      /** @description Amount of `from` spent (0 when unroutable). */
      amountIn: number;
      /** @description Amount of `to` received (0 when unroutable). */
      amountOut: number;
      /** @description The pinned amount as requested (amountIn or amountOut). */
      requestedAmount: number;
      /**
       * @description in: amountIn was pinned; out: amountOut was pinned.
       * @enum {string}
       */
      exactSide: 'in' | 'out';
      /** @description Null when unroutable. */
      effectiveRate: number | null;
      /** @description Null when unroutable or a hop has no reference price. */
      referenceRate: number | null;
      /** @description Null without both rates. */
      impactBps: number | null;
      /** @description The hops, in order; empty when unroutable (or the hops before a mid-route failure). */
      hops: components['schemas']['Hop'][];
      /** @description True when every hop filled completely and the pinned amount was met. */
      fullyFillable: boolean;
      /** @description Achieved / requested on the pinned side. */
      fillRatio: number;
      /** @description Requested minus achieved on the pinned side. */
      unfilledAmount: number;
      /** @description Null when routed. no_market is answered 404 and exact_out_multi_hop_unsupported 501; every other reason is 200. */
      unroutableReason:
        | (
            | 'no_market'
            | 'exact_out_multi_hop_unsupported'
            | 'no_venues_matched_filter'
            | 'all_books_stale'
            | 'no_liquidity'
            | 'insufficient_depth'
            | 'insufficient_balance'
          )
        | null;
      /** @description Null unless a bridged route failed after its first hop. */
      unroutableHopIndex: number | null;
      /** @description Human-readable warnings. */
      warnings: string[];
      /** @description Null on bridged routes, unroutable results and when includeQuotes is off. */
      savingVsBestSingleBps: number | null;
      /** @description Every existing candidate path in candidate order; empty when only one existed. */
      pathsConsidered: components['schemas']['PathConsidered'][];
      /**
       * @description The strategy used.
       * @enum {string}
       */
      strategy: 'best_single' | 'split_optimal' | 'split_capped';
      /** @description Echo of includeFees. */
      includeFees: boolean;
      /** @description The venue allowlist, sorted and deduplicated; null when unrestricted. */
      exchangesFilter: string[] | null;
      /** @description Echo of certified. */
      certifiedOnly: boolean;
      /** @description Server setting: books older than this never route. */
      staleBookMs: number;
      /** @description Server setting: ranking markdown per square root of a second of age. */
      stalenessPenaltyBps: number;
      /** @description Echo of hopPenaltyBps. */
      hopPenaltyBps: number;
      /** @description Echo of requireFullFill. */
      requireFullFill: boolean;
    };
    /** @description The body of every error answer. */
    Error: {
      /** @description What went wrong, in plain words (names the parameter or limit). */
      error: string;
    };
    /** @description One price level of a book. */
    Level: {
      /** @description Price in the quote currency. */
      price: number;
      /** @description Base units resting at that price. */
      amount: number;
    };
    /** @description A cached level-2 order book. */
    OrderBook: {
      /** @description Venue id. */
      exchangeId: string;
      /** @description Unified symbol, BASE/QUOTE. */
      symbol: string;
      /** @description Every cached bid, best (highest) first. */
      bids: components['schemas']['Level'][];
      /** @description Every cached ask, best (lowest) first. */
      asks: components['schemas']['Level'][];
      /** @description Null when the venue sends none. */
      exchangeTimestamp: number | null;
      /** @description When the ingestor received the last update, epoch ms. */
      receivedAt: number;
      /** @description Sequence number of the last update folded. */
      sequence: number;
    };
    /** @description The symbols that can route now. */
    Symbols: {
      /** @description Symbols with at least one fresh, in-sync book at the service clock, sorted. */
      symbols: string[];
    };
    /** @description Connection state of one venue. */
    VenueStatus: {
      /** @description Venue id. */
      exchangeId: string;
      /** @description Whether the ingestor holds a live connection to it. */
      connected: boolean;
      /** @description Null before the first record. */
      lastUpdateAt: number | null;
      /** @description Records folded from it since this process started. */
      updateCount: number;
      /** @description Reconnections since the ingestor started. */
      reconnectCount: number;
      /** @description Null when none. */
      lastError: string | null;
    };
    /** @description One stretch of the event log that could not be read and was skipped. */
    LogDamage: {
      /** @description Topic of the damaged stretch. */
      topic: string;
      partition: number;
      /** @description First entry that could not be read. */
      fromOffset: number;
      /** @description Entry after the last one that could not be read. */
      toOffset: number;
      /** @description The segment file (its name) the damage was found in. */
      file: string;
      /** @description Byte position of the damage in that file. */
      position: number;
      /** @description What was wrong with the bytes. */
      reason: string;
    };
    /** @description What this server found reading the event log (docs/operations-log.md "Faults"). */
    StorageStatus: {
      /**
       * @description The event log as this server reads it.
       * @enum {string}
       */
      status: 'starting' | 'ok' | 'degraded';
      /** @description Log entries skipped because their bytes are damaged. */
      damagedEntries: number;
      /** @description The first damaged stretches (at most 20). */
      damage: components['schemas']['LogDamage'][];
      /** @description Other findings that need an operator (a stray file, ...). */
      problems: string[];
      /** @description Books the log could not rebuild (no snapshot of them since the server caught up). */
      booksNotRebuilt: number;
      /** @description The retention horizon, epoch ms: the first instant asOf and replay can reach (earlier ones are refused, naming it); null while retention has removed nothing. */
      horizon: number | null;
    };
    /** @description Every venue the log has named, and the state of the log itself (an extension of the spec). */
    ExchangesStatus: {
      /** @description One entry per venue. */
      exchanges: components['schemas']['VenueStatus'][];
      log: components['schemas']['StorageStatus'];
    };
    /** @description Liveness and readiness. */
    Health: {
      /**
       * @description Whether the service can quote: `starting` until the cache has caught up with the event log; `no_fresh_books` when no book is in sync and fresh (every quote is unroutable); `degraded` when fewer than half the known venues have a fresh book, quote journal appends are failing, or reading the log found damage or books it could not rebuild (details in /exchanges/status `log`); `ok` otherwise.
       * @enum {string}
       */
      status: 'starting' | 'no_fresh_books' | 'degraded' | 'ok';
      /** @description Whole seconds since the API started. */
      uptimeSec: number;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The request x-request-id when it matched ^[\w.-]{1,200}$, otherwise a minted UUID. RouteResults carry it as requestId. */
    'x-request-id': string;
    /** @description Requests allowed per client IPv4 address per 1000 ms window (RATE_LIMIT_RPS). */
    'x-ratelimit-limit': number;
    /** @description Requests left in the current window. */
    'x-ratelimit-remaining': number;
    /** @description Whole seconds until the window closes, rounded up (at least 1). */
    'x-ratelimit-reset': number;
    /** @description A strong validator of the document; send it back as If-None-Match. */
    etag: string;
    /** @description Documents may be cached for an hour. */
    'cache-control': string;
    /** @description Whole seconds until the window closes, rounded up (at least 1). */
    'retry-after': number;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getRoute: {
    parameters: {
      query: {
        /**
         * @description Asset spent; trimmed and upper-cased, then 1 to 32 of A-Z 0-9 . _ -.
         * @example USDT
         */
        from: string;
        /**
         * @description Asset wanted; must differ from `from`; trimmed and upper-cased, then 1 to 32 of A-Z 0-9 . _ -.
         * @example BTC
         */
        to: string;
        /**
         * @description Exact amount of `from` to spend (> 0). Exactly one of amountIn and amountOut.
         * @example 1000
         */
        amountIn?: number;
        /** @description Exact amount of `to` to receive (> 0), direct markets only (a bridge-only conversion is 501). Exactly one of amountIn and amountOut. */
        amountOut?: number;
        /** @description best_single: one venue per hop; split_optimal: split across every venue at least cost; split_capped: at most maxVenues venues per hop. */
        strategy?: 'best_single' | 'split_optimal' | 'split_capped';
        /** @description Venues per hop for split_capped (an integer >= 1). */
        maxVenues?: number;
        /** @description Intermediary assets tried in this order (at most 16); explicitly empty disables bridging (direct markets only). */
        bridges?: string[];
        /** @description How much better, in bps per extra hop, a bridged path must be to beat a direct one (0 to 10000). */
        hopPenaltyBps?: number;
        /** @description Venue allowlist (at most 128 ids, case kept, echoed sorted); omitted means every venue, explicitly empty means none. */
        exchanges?: string[];
        /** @description Only venues marked certified; enabled only by the exact value `true`. */
        certified?: string;
        /** @description Rank and price with taker fees; disabled only by the exact value `false`. */
        includeFees?: string;
        /** @description Return per-venue quotes on each hop; disabled only by the exact value `false`. Default true on REST, false on the stream. */
        includeQuotes?: string;
        /** @description Holdings, comma-separated `[venue.]ASSET:amount` (at most 128 entries; an entry without a venue applies to every venue); explicitly empty means holding nothing. In a JSON body also an array of entries or an object {"[venue.]ASSET": amount}. */
        balances?: string;
        /** @description cap: route the best fundable size; require: refuse with insufficient_balance. Ignored without balances. */
        balanceMode?: 'cap' | 'require';
        /** @description Suppress legs below this quote-currency notional and reallocate their size (>= 0). */
        minLegNotional?: number;
        /** @description Refuse with insufficient_depth when depth cannot cover the size; enabled only by the exact value `true`. */
        requireFullFill?: string;
        /** @description Quote against the books as they were at this instant (epoch ms, a plain integer, not in the future); the clock is that instant. */
        asOf?: number;
      };
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A RouteResult. Unroutable outcomes other than the two below are 200 too, with an unroutableReason. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      /** @description A parameter is missing, malformed, out of range, unknown or repeated. */
      400: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No market or bridge path exists between from and to: a full RouteResult with unroutableReason no_market. */
      404: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      /** @description The query string is longer than 4096 characters. */
      414: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
      /** @description amountOut was pinned but only a bridged path exists: a full RouteResult with unroutableReason exact_out_multi_hop_unsupported. */
      501: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      /** @description JOURNAL_STRICT=true and the quote journal could not record the quote, so it is not served. */
      503: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postRoute: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description At most 64 KiB; strict JSON (a repeated key is 400). */
    requestBody: {
      content: {
        'application/json': {
          /** @description Asset spent; trimmed and upper-cased, then 1 to 32 of A-Z 0-9 . _ -. */
          from: string;
          /** @description Asset wanted; must differ from `from`; trimmed and upper-cased, then 1 to 32 of A-Z 0-9 . _ -. */
          to: string;
          /** @description Exact amount of `from` to spend (> 0). Exactly one of amountIn and amountOut. */
          amountIn?: number | string;
          /** @description Exact amount of `to` to receive (> 0), direct markets only (a bridge-only conversion is 501). Exactly one of amountIn and amountOut. */
          amountOut?: number | string;
          /**
           * @description best_single: one venue per hop; split_optimal: split across every venue at least cost; split_capped: at most maxVenues venues per hop.
           * @default best_single
           * @enum {string}
           */
          strategy?: 'best_single' | 'split_optimal' | 'split_capped';
          /**
           * @description Venues per hop for split_capped (an integer >= 1).
           * @default 3
           */
          maxVenues?: number | string;
          /**
           * @description Intermediary assets tried in this order (at most 16); explicitly empty disables bridging (direct markets only).
           * @default [
           *       "USDT",
           *       "USDC",
           *       "BTC",
           *       "ETH"
           *     ]
           */
          bridges?: string[] | string;
          /**
           * @description How much better, in bps per extra hop, a bridged path must be to beat a direct one (0 to 10000).
           * @default 5
           */
          hopPenaltyBps?: number | string;
          /** @description Venue allowlist (at most 128 ids, case kept, echoed sorted); omitted means every venue, explicitly empty means none. */
          exchanges?: string[] | string;
          /**
           * @description Only venues marked certified; enabled only by the exact value `true`.
           * @default false
           */
          certified?: boolean | string;
          /**
           * @description Rank and price with taker fees; disabled only by the exact value `false`.
           * @default true
           */
          includeFees?: boolean | string;
          /**
           * @description Return per-venue quotes on each hop; disabled only by the exact value `false`. Default true on REST, false on the stream.
           * @default true
           */
          includeQuotes?: boolean | string;
          /** @description Holdings, comma-separated `[venue.]ASSET:amount` (at most 128 entries; an entry without a venue applies to every venue); explicitly empty means holding nothing. In a JSON body also an array of entries or an object {"[venue.]ASSET": amount}. */
          balances?:
            | string
            | string[]
            | {
                [key: string]: number | string;
              };
          /**
           * @description cap: route the best fundable size; require: refuse with insufficient_balance. Ignored without balances.
           * @default cap
           * @enum {string}
           */
          balanceMode?: 'cap' | 'require';
          /**
           * @description Suppress legs below this quote-currency notional and reallocate their size (>= 0).
           * @default 0
           */
          minLegNotional?: number | string;
          /**
           * @description Refuse with insufficient_depth when depth cannot cover the size; enabled only by the exact value `true`.
           * @default false
           */
          requireFullFill?: boolean | string;
          /** @description Quote against the books as they were at this instant (epoch ms, a plain integer, not in the future); the clock is that instant. */
          asOf?: number | string;
        } & (unknown | unknown);
      };
    };
    responses: {
      /** @description A RouteResult. Unroutable outcomes other than the two below are 200 too, with an unroutableReason. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      /** @description A parameter is missing, malformed, out of range, unknown or repeated. */
      400: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No market or bridge path exists between from and to: a full RouteResult with unroutableReason no_market. */
      404: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      /** @description The body is larger than 64 KiB. */
      413: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The Content-Type is not one the server can parse (send application/json; other text types are 400). */
      415: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
      /** @description amountOut was pinned but only a bridged path exists: a full RouteResult with unroutableReason exact_out_multi_hop_unsupported. */
      501: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      /** @description JOURNAL_STRICT=true and the quote journal could not record the quote, so it is not served. */
      503: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getOrderBook: {
    parameters: {
      query?: {
        /** @description The book as it was at this instant (epoch ms, a plain integer, not later than the service clock, not before the oldest state the event log holds), rebuilt from the event log. */
        asOf?: number;
      };
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path: {
        /**
         * @description Venue id, as /exchanges/status lists it.
         * @example sim00
         */
        exchange: string;
        /**
         * @description Unified symbol with its slash URL-encoded, e.g. BTC%2FUSDT.
         * @example BTC/USDT
         */
        symbol: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every cached level, best first. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OrderBook'];
        };
      };
      /** @description asOf is malformed, in the future or older than the event log; or an unknown parameter. */
      400: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No book of that venue and symbol was ever cached (or none existed at asOf). */
      404: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The query string is longer than 4096 characters, or a path parameter longer than 100 (the latter answered by Fastify before any check, with its own body and without the gate's headers). */
      414: {
        headers: {
          /** @description The request x-request-id when it matched ^[\w.-]{1,200}$, otherwise a minted UUID. RouteResults carry it as requestId. */
          'x-request-id'?: string;
          /** @description Requests allowed per client IPv4 address per 1000 ms window (RATE_LIMIT_RPS). */
          'x-ratelimit-limit'?: number;
          /** @description Requests left in the current window. */
          'x-ratelimit-remaining'?: number;
          /** @description Whole seconds until the window closes, rounded up (at least 1). */
          'x-ratelimit-reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['Error']
            | {
                error: string;
                message?: string;
                code?: string;
                statusCode?: number;
              };
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
    };
  };
  getOrderBookByPair: {
    parameters: {
      query?: {
        /** @description The book as it was at this instant (epoch ms, a plain integer, not later than the service clock, not before the oldest state the event log holds), rebuilt from the event log. */
        asOf?: number;
      };
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path: {
        /**
         * @description Venue id, as /exchanges/status lists it.
         * @example sim00
         */
        exchange: string;
        /**
         * @description Base asset of the symbol.
         * @example BTC
         */
        base: string;
        /**
         * @description Quote asset of the symbol.
         * @example USDT
         */
        quote: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every cached level, best first. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OrderBook'];
        };
      };
      /** @description asOf is malformed, in the future or older than the event log; or an unknown parameter. */
      400: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No book of that venue and symbol was ever cached (or none existed at asOf). */
      404: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The query string is longer than 4096 characters, or a path parameter longer than 100 (the latter answered by Fastify before any check, with its own body and without the gate's headers). */
      414: {
        headers: {
          /** @description The request x-request-id when it matched ^[\w.-]{1,200}$, otherwise a minted UUID. RouteResults carry it as requestId. */
          'x-request-id'?: string;
          /** @description Requests allowed per client IPv4 address per 1000 ms window (RATE_LIMIT_RPS). */
          'x-ratelimit-limit'?: number;
          /** @description Requests left in the current window. */
          'x-ratelimit-remaining'?: number;
          /** @description Whole seconds until the window closes, rounded up (at least 1). */
          'x-ratelimit-reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['Error']
            | {
                error: string;
                message?: string;
                code?: string;
                statusCode?: number;
              };
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
    };
  };
  getSymbols: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Sorted symbols. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Symbols'];
        };
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
    };
  };
  getExchangesStatus: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One entry per venue. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExchangesStatus'];
        };
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Always 200; status says whether the cache has caught up. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
    };
  };
  getOpenApi: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          etag: components['headers']['etag'];
          'cache-control': components['headers']['cache-control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      /** @description Not modified: If-None-Match named the current ETag. */
      304: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          etag: components['headers']['etag'];
          'cache-control': components['headers']['cache-control'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
    };
  };
  getAsyncApi: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          etag: components['headers']['etag'];
          'cache-control': components['headers']['cache-control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      /** @description Not modified: If-None-Match named the current ETag. */
      304: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          etag: components['headers']['etag'];
          'cache-control': components['headers']['cache-control'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
    };
  };
  getDocs: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          etag: components['headers']['etag'];
          'cache-control': components['headers']['cache-control'];
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description Not modified: If-None-Match named the current ETag. */
      304: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          etag: components['headers']['etag'];
          'cache-control': components['headers']['cache-control'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds. */
      429: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: string;
            message?: string;
            code?: string;
            statusCode?: number;
          };
        };
      };
    };
  };
}
