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
  '/stream/route': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The route stream (WebSocket; described in /asyncapi.json)
     * @description A WebSocket endpoint: open it with a WebSocket handshake (Upgrade: websocket) and the GET /route parameters in the query string; the frames, close codes and parameters are in /asyncapi.json. A plain HTTP request is 426 whatever its query; a handshake passes the gate first (403, 429) and is checked before the WebSocket server sees it.
     */
    get: operations['openRouteStream'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/route/explain': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Quote a conversion with its proof and the cost of each constraint (extension)
     * @description An extension beyond the spec. The GET /route parameters, parser, limits and gate; answers { result, proof, constraintCosts } from one snapshot: result is the RouteResult GET /route would give (journalled the same way, so replay quote reproduces it), proof the walk-the-book proof of that very solve, constraintCosts what the other strategies, paths and the request without each active constraint would give (docs/explain.md).
     */
    get: operations['explainRoute'];
    put?: never;
    post?: never;
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
    /** Liveness */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness, for orchestrators (extension) */
    get: operations['getReady'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Public keys of quote receipts and checkpoints (extension) */
    get: operations['getKeys'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/checkpoint': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The origin's latest signed checkpoint (extension) */
    get: operations['getCheckpoint'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/checkpoint/consistency': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** RFC 9162 consistency proof between two tree sizes (extension) */
    get: operations['getCheckpointConsistency'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/receipts/{requestId}/proof': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Inclusion proof of a quote's journal record (extension) */
    get: operations['getReceiptProof'];
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
  '/explorer': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The route explorer page (extension; one self-contained HTML page) */
    get: operations['getExplorer'];
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
      /** @description Markets kept out of routing (`exchangeId symbol`, at most 100): the log lost an entry of the venue's partition after its market or venue record, which may have been a newer one; each comes back when the ingestor writes its records again (LISTING_REPUBLISH_MS). */
      marketsWithheld: string[];
      /** @description The retention horizon, epoch ms: the first instant asOf and replay can reach (earlier ones are refused, naming it); null while retention has removed nothing. */
      horizon: number | null;
    };
    /** @description Every venue the log has named, and the state of the log itself (an extension of the spec). */
    ExchangesStatus: {
      /** @description One entry per venue. */
      exchanges: components['schemas']['VenueStatus'][];
      log: components['schemas']['StorageStatus'];
    };
    /** @description Liveness, and whether the service can quote. */
    Health: {
      /**
       * @description Whether the service can quote: `starting` until the cache has caught up with the event log; `no_fresh_books` when no book is in sync and fresh (every quote is unroutable); `degraded` when fewer than half the known venues have a fresh book, quote journal appends are failing, or reading the log found damage or books it could not rebuild (details in /exchanges/status `log`); `ok` otherwise.
       * @enum {string}
       */
      status: 'starting' | 'no_fresh_books' | 'degraded' | 'ok';
      /** @description Whole seconds since the API started. */
      uptimeSec: number;
    };
    /** @description Whether an orchestrator should send traffic here (an extension of the spec). */
    Readiness: {
      /** @description True when the service takes traffic (HTTP 200), else false (HTTP 503). */
      ready: boolean;
      /**
       * @description `starting` until the cache has caught up with the event log; `stopping` once shutdown has begun; `ready` in between.
       * @enum {string}
       */
      status: 'ready' | 'starting' | 'stopping';
    };
    /** @description One level a leg consumed. */
    LevelProof: {
      /** @description Position of this take in the hop's walk. */
      step: number;
      /** @description Index of the level on the walked side, 0 = best. */
      level: number;
      /** @description Level price. */
      price: number;
      /** @description Base units the level offered. */
      available: number;
      /** @description Base units taken. */
      base: number;
      /** @description price * base. */
      cost: number;
      /** @description The leg's base after this take. */
      runningBase: number;
      /** @description The leg's raw cost after this take. */
      runningCost: number;
      /**
       * @description What ended the take (max_reached and whole_step come from the venue's order rules).
       * @enum {string}
       */
      stop: 'level_exhausted' | 'amount_met' | 'cap_reached' | 'max_reached' | 'whole_step';
    };
    /** @description One leg: its levels and the fee and staleness arithmetic. */
    LegProof: {
      /** @description Venue id. */
      exchangeId: string;
      /** @description Null when it does not apply (docs/explain.md). */
      bookSequence: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      bookAgeMs: number | null;
      levels: components['schemas']['LevelProof'][];
      /** @description Base units (the last runningBase). */
      amount: number;
      /** @description Raw quote value (the last runningCost). */
      cost: number;
      /** @description cost / amount. */
      averagePrice: number;
      /** @description Fee fraction applied. */
      fee: number;
      /** @description cost * fee. */
      feeCost: number;
      /** @description averagePrice with the fee. */
      effectivePrice: number;
      /** @description Spent in the hop's input asset. */
      amountIn: number;
      /** @description Received in the hop's output asset. */
      amountOut: number;
      /** @description Staleness markdown of the book (ranking only). */
      staleness: number;
      /** @description (1+f)(1+s) on a buy, (1-f)(1-s) on a sell. */
      rankMul: number;
      /** @description averagePrice * rankMul. */
      rankingPrice: number;
      /** @description Null when it does not apply (docs/explain.md). */
      cap: number | null;
      /** @description The cap stopped this leg. */
      capLimited: boolean;
      /** @description Null when the market carries no order rule. */
      rules: {
        /** @description Null when it does not apply (docs/explain.md). */
        amountStep: number | null;
        /** @description Null when it does not apply (docs/explain.md). */
        minAmount: number | null;
        /** @description Null when it does not apply (docs/explain.md). */
        minCost: number | null;
        /** @description Null when it does not apply (docs/explain.md). */
        maxAmount: number | null;
      } | null;
      /** @description Null when it does not apply (docs/explain.md). */
      steps: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      shapedBy: ('step' | 'max') | null;
    };
    /** @description A venue listing the hop market after the filters. */
    VenueProof: {
      /** @description Venue id. */
      exchangeId: string;
      /** @description The book may route. */
      fresh: boolean;
      /** @description Null when it does not apply (docs/explain.md). */
      notFreshBecause: ('no_book' | 'out_of_sync' | 'crossed' | 'ahead_of_clock' | 'stale') | null;
      /** @description Null when it does not apply (docs/explain.md). */
      bookSequence: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      bookReceivedAt: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      bookAgeMs: number | null;
      /** @description As published, else the default. */
      takerFeeRate: number;
      /** @description Fee fraction applied (0 with includeFees=false). */
      fee: number;
      /** @description stalenessPenaltyBps * sqrt(age/1000) / 10000. */
      staleness: number;
      /** @description Ranking multiplier. */
      rankMul: number;
      /** @description Null when it does not apply (docs/explain.md). */
      bestPrice: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      cap: number | null;
      /** @description The venue has a leg. */
      used: boolean;
      /** @description Null when the market carries no order rule. */
      rules: {
        /** @description Null when it does not apply (docs/explain.md). */
        amountStep: number | null;
        /** @description Null when it does not apply (docs/explain.md). */
        minAmount: number | null;
        /** @description Null when it does not apply (docs/explain.md). */
        minCost: number | null;
        /** @description Null when it does not apply (docs/explain.md). */
        maxAmount: number | null;
      } | null;
      /** @description Null when it does not apply (docs/explain.md). */
      droppedBecause: ('min_amount' | 'min_cost') | null;
    };
    /** @description One hop of a candidate path as solved. */
    HopProof: {
      /** @description Hop index. */
      index: number;
      /** @description Market. */
      pair: string;
      /**
       * @description buy walks asks, sell walks bids.
       * @enum {string}
       */
      side: 'buy' | 'sell';
      /** @description What the hop spends. */
      inAsset: string;
      /** @description What the hop receives. */
      outAsset: string;
      /** @description What the hop was asked. */
      asked: {
        /**
         * @description Pinned side.
         * @enum {string}
         */
        pinned: 'in' | 'out';
        /** @description Amount asked. */
        amount: number;
        /** @description Its asset. */
        asset: string;
      };
      /**
       * @description Strategy the hop was solved with.
       * @enum {string}
       */
      strategy: 'best_single' | 'split_optimal' | 'split_capped';
      /** @description Null when it does not apply (docs/explain.md). */
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
      /** @description As the result shows it. */
      amountIn: number;
      /** @description As the result shows it. */
      amountOut: number;
      /** @description The walk met the asked amount. */
      pinnedMet: boolean;
      /** @description As the result reports. */
      fullyFillable: boolean;
      venues: components['schemas']['VenueProof'][];
      legs: components['schemas']['LegProof'][];
      /** @description The legs come from the fill search over venue minimums. */
      fillSearch: boolean;
    };
    /** @description The score arithmetic. */
    ScoreProof: {
      /** @description Path output. */
      amountOut: number;
      /** @description Hops. */
      hops: number;
      /** @description Hop penalty. */
      hopPenaltyBps: number;
      /** @description 1 - hopPenaltyBps / 10000. */
      factor: number;
      steps: number[];
      /** @description The last step (0 when the path failed). */
      score: number;
    };
    /** @description One candidate path. */
    CandidateProof: {
      /** @description Position in candidate order. */
      index: number;
      pairs: string[];
      /** @description Null when it does not apply (docs/explain.md). */
      bridge: string | null;
      /** @description False for the bridges of an exact-out request. */
      solved: boolean;
      /** @description Null when it does not apply (docs/explain.md). */
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
      /** @description Null when it does not apply (docs/explain.md). */
      failedAtHop: number | null;
      /** @description Path input. */
      amountIn: number;
      /** @description Path output. */
      amountOut: number;
      /** @description As in pathsConsidered. */
      fullyFillable: boolean;
      /** @description Null when it does not apply (docs/explain.md). */
      score: components['schemas']['ScoreProof'] | null;
      /** @description May it win. */
      eligible: boolean;
      /** @description Null when it does not apply (docs/explain.md). */
      ineligibleBecause: ('not_solved' | 'unroutable' | 'no_output' | 'not_fully_fillable') | null;
      /**
       * @description How it fared against the winner.
       * @enum {string}
       */
      verdict:
        'chosen' | 'lower_score' | 'same_score_more_hops' | 'same_score_later' | 'ineligible' | 'none_chosen';
      /** @description Null when it does not apply (docs/explain.md). */
      trim: {
        /** @description Hop 1 filled. */
        hop1Filled: boolean;
        /** @description Delivered. */
        delivered: number;
        /** @description Absorbed. */
        absorbed: number;
        /** @description Rounds. */
        rounds: number;
      } | null;
      hops: components['schemas']['HopProof'][];
    };
    /** @description Why the winner won. */
    DecisionProof: {
      /** @description Null when it does not apply (docs/explain.md). */
      winner: number | null;
      /**
       * @description The rule that decided.
       * @enum {string}
       */
      rule:
        | 'no_market'
        | 'exact_out_direct_only'
        | 'none_eligible'
        | 'only_eligible'
        | 'higher_score'
        | 'fewer_hops'
        | 'earlier_candidate';
      /** @description Null when it does not apply (docs/explain.md). */
      runnerUp: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      marginBps: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      hopsFrom: number | null;
    };
    /** @description The walk-the-book proof of the solve that produced the result (docs/explain.md section 1). */
    SolveProof: {
      /**
       * @description Version of this shape.
       * @constant
       */
      proofVersion: 1;
      /** @description Solver version. */
      solverVersion: string;
      /** @description Request id. */
      requestId: string;
      /** @description The clock of the solve. */
      calculatedAt: number;
      /**
       * @description Pinned side.
       * @enum {string}
       */
      exactSide: 'in' | 'out';
      /** @description Pinned amount. */
      requestedAmount: number;
      /** @description Asset of the pinned amount. */
      pinnedAsset: string;
      /** @description The routing configuration used. */
      config: {
        /** @description Server setting. */
        staleBookMs: number;
        /** @description Server setting. */
        stalenessPenaltyBps: number;
        /** @description Server setting. */
        defaultTakerFeeRate: number;
      };
      /** @description From the request. */
      hopPenaltyBps: number;
      /** @description From the request. */
      requireFullFill: boolean;
      candidates: components['schemas']['CandidateProof'][];
      decision: components['schemas']['DecisionProof'];
    };
    /** @description The same snapshot solved with the named change. */
    Counterfactual: {
      /** @description What the caller did not pin: amountOut when exact-in, amountIn when exact-out. */
      value: number;
      /** @description Pinned side achieved share. */
      fillRatio: number;
      /** @description As in a RouteResult. */
      fullyFillable: boolean;
      /** @description Null when it does not apply (docs/explain.md). */
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
      /** @description Null when it does not apply (docs/explain.md). */
      effectiveRate: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      costBps: number | null;
      /** @description Row name. */
      name: string;
      /** @description Request fields changed. */
      requestChange: Record<string, never>;
      /** @description Config fields changed. */
      configChange: Record<string, never>;
      result: components['schemas']['RouteResult'];
    };
    /** @description What a strategy would give. */
    StrategyCost: {
      /** @description What the caller did not pin: amountOut when exact-in, amountIn when exact-out. */
      value: number;
      /** @description Pinned side achieved share. */
      fillRatio: number;
      /** @description As in a RouteResult. */
      fullyFillable: boolean;
      /** @description Null when it does not apply (docs/explain.md). */
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
      /** @description Null when it does not apply (docs/explain.md). */
      effectiveRate: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      costBps: number | null;
      /** @description Strategy. */
      name: string;
      /** @description Request fields changed. */
      requestChange: Record<string, never>;
      /** @description Config fields changed. */
      configChange: Record<string, never>;
      /** @description The request's own strategy. */
      current: boolean;
      /** @description Null for the current strategy. */
      result: components['schemas']['RouteResult'] | null;
    };
    /** @description One candidate path of the route. */
    PathCost: {
      /** @description What the caller did not pin: amountOut when exact-in, amountIn when exact-out. */
      value: number;
      /** @description Pinned side achieved share. */
      fillRatio: number;
      /** @description As in a RouteResult. */
      fullyFillable: boolean;
      /** @description Null when it does not apply (docs/explain.md). */
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
      /** @description Null when it does not apply (docs/explain.md). */
      effectiveRate: number | null;
      /** @description Null when it does not apply (docs/explain.md). */
      costBps: number | null;
      pairs: string[];
      /** @description Null when it does not apply (docs/explain.md). */
      bridge: string | null;
      /** @description The route took this path. */
      chosen: boolean;
      /** @description Path input. */
      amountIn: number;
      /** @description Path output. */
      amountOut: number;
      /** @description Null when it does not apply (docs/explain.md). */
      score: number | null;
    };
    /** @description What each alternative would give on the same snapshot (docs/explain.md section 2). */
    ConstraintCosts: {
      /** @description Request id. */
      requestId: string;
      /** @description Asset of every value. */
      valueAsset: string;
      /** @description The route's own figures. */
      route: {
        /** @description What the caller did not pin: amountOut when exact-in, amountIn when exact-out. */
        value: number;
        /** @description Pinned side achieved share. */
        fillRatio: number;
        /** @description As in a RouteResult. */
        fullyFillable: boolean;
        /** @description Null when it does not apply (docs/explain.md). */
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
        /** @description Null when it does not apply (docs/explain.md). */
        effectiveRate: number | null;
      };
      strategies: components['schemas']['StrategyCost'][];
      paths: components['schemas']['PathCost'][];
      constraints: components['schemas']['Counterfactual'][];
    };
    /** @description GET /route/explain: the RouteResult, its proof and its constraint costs, from one snapshot. */
    ExplainedRoute: {
      result: components['schemas']['RouteResult'];
      proof: components['schemas']['SolveProof'];
      constraintCosts: components['schemas']['ConstraintCosts'];
    };
    /** @description One signing key of an origin. */
    PublishedKey: {
      /** @description The origin this key signs for, `route-service/<name>`. */
      origin: string;
      /** @description Signed-note key id of (origin, publicKey), 8 hex digits. */
      keyId: string;
      /** @description Standard base64 of the raw 32-byte Ed25519 public key. */
      publicKey: string;
      /** @description Epoch ms from which the key signs. */
      notBefore: number;
      /** @description Null while the key is current. */
      notAfter: number | null;
    };
    /** @description The public keys that verify receipts and checkpoints (an extension of the spec). */
    Keys: {
      /** @description This process's origin's keys, oldest first: rotated-out keys stay listed. */
      keys: components['schemas']['PublishedKey'][];
    };
    /** @description A quote's journal record under a signed checkpoint (docs/audit.md "Proofs"). */
    InclusionProof: {
      /** @description The origin whose log this is, `route-service/<name>`. */
      origin: string;
      /** @description The quote whose record is proven. */
      requestId: string;
      /** @description The record's index among the origin's leaves. */
      leafIndex: number;
      /** @description The size of the tree the path proves it in: the signed checkpoint's. */
      treeSize: number;
      /** @description RFC 9162 inclusion path, deepest sibling first. */
      inclusionPath: string[];
      /** @description The signed checkpoint note of treeSize, verbatim. */
      checkpoint: string;
    };
    /** @description The tree of `to` leaves extends the tree of `from` (docs/audit.md "Proofs"). */
    ConsistencyProof: {
      /** @description The origin whose log this is, `route-service/<name>`. */
      origin: string;
      /** @description The older tree size (at least 1). */
      from: number;
      /** @description The newer tree size (at most the latest checkpoint's). */
      to: number;
      /** @description RFC 9162 consistency path from the tree of `from` leaves to that of `to`. */
      consistencyPath: string[];
    };
  };
  responses: {
    /** @description The request is malformed before any parameter is read: HTTP/1.1 without a Host header or any request with two, a malformed percent-escape in the path, a request that is not HTTP/1.x (an HTTP/2 preface included), or a bad WebSocket handshake on /stream/route. */
    BadRequest: {
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
    /** @description The client address is not IPv4 (after TRUSTED_PROXY): answered first, whatever else is wrong, and not counted by the rate limit, so it carries x-request-id but no rate-limit headers. */
    Ipv4Only: {
      headers: {
        'x-request-id': components['headers']['x-request-id'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description No endpoint has this path. */
    NotFound: {
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
    /** @description The answer to a method this path does not take (any method but the operations listed for it): the allow header lists the ones it takes. A method token the server does not know at all, and CONNECT, get allow: GET, HEAD, POST. */
    MethodNotAllowed: {
      headers: {
        'x-request-id': components['headers']['x-request-id'];
        'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
        'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
        'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
        allow: components['headers']['allow'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The request headers did not arrive within HEADERS_TIMEOUT_MS (10000 by default), or the whole request, body included, within REQUEST_TIMEOUT_MS (30000). The connection is closed. */
    RequestTimeout: {
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
    /** @description The body is larger than 64 KiB (refused before it is sent when announced with Expect: 100-continue, on any path), or its chunk extensions are too large. */
    ContentTooLarge: {
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
    /** @description The path is longer than 1024 characters, one path segment longer than 100, or the query string longer than 4096 (checked before any routing). */
    UriTooLong: {
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
    /** @description Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint; retry-after says when the window closes), or over the connection budget (CONNECTIONS_MAX_PER_IP open connections per address, CONNECTIONS_MAX in all; retry-after 1, and the connection is closed). */
    RateLimited: {
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
    /** @description The request line and headers together are larger than 16 KiB. The connection is closed. */
    HeadersTooLarge: {
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
    /** @description The quote receipt, when the operator set RECEIPTS=true: base64url of a JSON object signing the SHA-256 and length of exactly these body bytes with the origin's Ed25519 key (GET /keys); docs/audit.md "The receipt" defines it and how to verify it. */
    'x-quote-receipt': string;
    /** @description A strong validator of the document; send it back as If-None-Match. */
    etag: string;
    /** @description Documents may be cached for an hour. */
    'cache-control': string;
    /** @description Whole seconds until the rate-limit window closes, rounded up (at least 1); 1 for the connection budget. */
    'retry-after': number;
    /** @description The methods this path takes, e.g. GET, HEAD, POST. */
    allow: string;
    /** @description websocket: the protocol /stream/route speaks. */
    upgrade: 'websocket';
    /** @description The WebSocket versions the server speaks, when the handshake named another. */
    'sec-websocket-version': '13, 8';
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
         * @description Exact amount of `from` to spend (at least 1e-12). Exactly one of amountIn and amountOut.
         * @example 1000
         */
        amountIn?: number;
        /** @description Exact amount of `to` to receive (at least 1e-12), direct markets only (a bridge-only conversion is 501). Exactly one of amountIn and amountOut. */
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
          'x-quote-receipt': components['headers']['x-quote-receipt'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      /** @description A parameter is missing, malformed, out of range (an amount below 1e-12 included), unknown or repeated (the message names it, or the cap it exceeds); a body that is not UTF-8 (the first bad byte named); or the request is malformed before any parameter is read (no Host in HTTP/1.1 or two Hosts, a bad percent-escape, not HTTP/1.x). */
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
      403: components['responses']['Ipv4Only'];
      /** @description No market or bridge path exists between from and to: a full RouteResult with unroutableReason no_market. */
      404: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'x-quote-receipt': components['headers']['x-quote-receipt'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
      /** @description amountOut was pinned but only a bridged path exists: a full RouteResult with unroutableReason exact_out_multi_hop_unsupported. */
      501: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'x-quote-receipt': components['headers']['x-quote-receipt'];
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
          /** @description Exact amount of `from` to spend (at least 1e-12). Exactly one of amountIn and amountOut. */
          amountIn?: number | string;
          /** @description Exact amount of `to` to receive (at least 1e-12), direct markets only (a bridge-only conversion is 501). Exactly one of amountIn and amountOut. */
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
          'x-quote-receipt': components['headers']['x-quote-receipt'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      /** @description A parameter is missing, malformed, out of range (an amount below 1e-12 included), unknown or repeated (the message names it, or the cap it exceeds); a body that is not UTF-8 (the first bad byte named); or the request is malformed before any parameter is read (no Host in HTTP/1.1 or two Hosts, a bad percent-escape, not HTTP/1.x). */
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
      403: components['responses']['Ipv4Only'];
      /** @description No market or bridge path exists between from and to: a full RouteResult with unroutableReason no_market. */
      404: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'x-quote-receipt': components['headers']['x-quote-receipt'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResult'];
        };
      };
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      /** @description The Content-Type is not one the server can parse (send application/json, in UTF-8: another charset is 415 too; other text types are 400). */
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
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
      /** @description amountOut was pinned but only a bridged path exists: a full RouteResult with unroutableReason exact_out_multi_hop_unsupported. */
      501: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'x-quote-receipt': components['headers']['x-quote-receipt'];
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
  openRouteStream: {
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
      /** @description Switching Protocols: the stream is open (only for a WebSocket handshake). */
      101: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A handshake with a missing or malformed Sec-WebSocket-Key or Sec-WebSocket-Protocol, or without Host in HTTP/1.1. */
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
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      /** @description Not a WebSocket handshake (no Upgrade: websocket), or one with a Sec-WebSocket-Version other than 13 or 8 (then sec-websocket-version lists them). */
      426: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          upgrade: components['headers']['upgrade'];
          'sec-websocket-version': components['headers']['sec-websocket-version'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
    };
  };
  explainRoute: {
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
         * @description Exact amount of `from` to spend (at least 1e-12). Exactly one of amountIn and amountOut.
         * @example 1000
         */
        amountIn?: number;
        /** @description Exact amount of `to` to receive (at least 1e-12), direct markets only (a bridge-only conversion is 501). Exactly one of amountIn and amountOut. */
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
      /** @description The result, its proof and its constraint costs. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExplainedRoute'];
        };
      };
      /** @description A parameter is missing, malformed, out of range (an amount below 1e-12 included), unknown or repeated (the message names it, or the cap it exceeds); a body that is not UTF-8 (the first bad byte named); or the request is malformed before any parameter is read (no Host in HTTP/1.1 or two Hosts, a bad percent-escape, not HTTP/1.x). */
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
      403: components['responses']['Ipv4Only'];
      /** @description No market or bridge path: result has unroutableReason no_market. */
      404: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExplainedRoute'];
        };
      };
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
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
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
      /** @description amountOut pinned over a bridged path only: result has exact_out_multi_hop_unsupported. */
      501: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExplainedRoute'];
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
      /** @description asOf is malformed, in the future or older than the event log; an unknown or repeated parameter; or the request is malformed before any parameter is read (no Host in HTTP/1.1, a bad percent-escape, not HTTP/1.x). */
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
      403: components['responses']['Ipv4Only'];
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
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
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
      /** @description asOf is malformed, in the future or older than the event log; an unknown or repeated parameter; or the request is malformed before any parameter is read (no Host in HTTP/1.1, a bad percent-escape, not HTTP/1.x). */
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
      403: components['responses']['Ipv4Only'];
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
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
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
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
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
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
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
      /** @description Always 200 while the process answers (liveness); status says whether it can quote. For readiness see /ready. */
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
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
    };
  };
  getReady: {
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
      /** @description Takes traffic: the cache has caught up with the event log. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
      /** @description Starting (catching up with the event log) or stopping (shutdown has begun); retry-after says when to ask again. */
      503: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          'retry-after': components['headers']['retry-after'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
    };
  };
  getKeys: {
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
      /** @description Every key this origin signed with; docs/audit.md says how to check one. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Keys'];
        };
      };
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
    };
  };
  getCheckpoint: {
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
      /** @description The latest signed checkpoint: a C2SP signed note. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example route-service/main
           *     8
           *     XcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=
           *     time 1767225600000
           *     merge-delay-ms 10000
           *
           *     — route-service/main 3JdWeo6ubwVyiIjvIXVN++PoK7P6NEFkHNUGpqV9qnuZ9nrySm1vBG8aKXWdqOioyOP67OvYEGCOotZJ/0yepf/nYwg=
           */
          'text/plain': string;
        };
      };
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      /** @description RECEIPTS is off (no log), or no checkpoint is signed yet. */
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
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
    };
  };
  getCheckpointConsistency: {
    parameters: {
      query: {
        /**
         * @description The older tree size, at least 1.
         * @example 3
         */
        from: string;
        /**
         * @description The newer tree size, from `from` to the latest checkpoint's.
         * @example 8
         */
        to: string;
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
      /** @description The consistency path. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConsistencyProof'];
        };
      };
      /** @description from or to is missing, not a canonical decimal, 0 or out of order; or another parameter is given. */
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
      403: components['responses']['Ipv4Only'];
      /** @description RECEIPTS is off (no log), or no checkpoint is signed yet. Or to is above the latest checkpoint's size. */
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
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
    };
  };
  getReceiptProof: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint. */
        'x-request-id'?: string;
      };
      path: {
        /**
         * @description The quote's requestId, as its receipt names it.
         * @example kat-1
         */
        requestId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The leaf, the signed checkpoint it is proven under, and the path. */
      200: {
        headers: {
          'x-request-id': components['headers']['x-request-id'];
          'x-ratelimit-limit': components['headers']['x-ratelimit-limit'];
          'x-ratelimit-remaining': components['headers']['x-ratelimit-remaining'];
          'x-ratelimit-reset': components['headers']['x-ratelimit-reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InclusionProof'];
        };
      };
      /** @description The requestId does not match ^[A-Za-z0-9_.-]{1,200}$. */
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
      403: components['responses']['Ipv4Only'];
      /** @description RECEIPTS is off; the record is not in this origin's log (yet: one enters within the merge delay); or it is not under a signed checkpoint yet. */
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
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
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
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
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
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
    };
  };
  getExplorer: {
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
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
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
      400: components['responses']['BadRequest'];
      403: components['responses']['Ipv4Only'];
      405: components['responses']['MethodNotAllowed'];
      408: components['responses']['RequestTimeout'];
      413: components['responses']['ContentTooLarge'];
      414: components['responses']['UriTooLong'];
      429: components['responses']['RateLimited'];
      431: components['responses']['HeadersTooLarge'];
    };
  };
}
