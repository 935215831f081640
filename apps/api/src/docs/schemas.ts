import { Type, type Static } from '@sinclair/typebox';
import { stringEnum, nullable } from './result-schema';

/*
 * The response schemas of the market endpoints and of every error, written once. The market
 * controller's return types are these schemas' static types, and a check in the market service
 * (MarketSchemaMatches) ties them to the service's own types, so the documents cannot describe
 * another shape.
 */

const closed = (id: string, description: string) => ({ $id: id, description, additionalProperties: false });

/** `{"error": string}`: the body of every error status. */
export const ErrorSchema = Type.Object(
  { error: Type.String({ description: 'What went wrong, in plain words (names the parameter or limit).' }) },
  closed('Error', 'The body of every error answer.'),
);
export type ErrorBody = Static<typeof ErrorSchema>;

export const LevelSchema = Type.Object(
  {
    price: Type.Number({ exclusiveMinimum: 0, description: 'Price in the quote currency.' }),
    amount: Type.Number({ minimum: 0, description: 'Base units resting at that price.' }),
  },
  closed('Level', 'One price level of a book.'),
);

export const OrderBookSchema = Type.Object(
  {
    exchangeId: Type.String({ description: 'Venue id.' }),
    symbol: Type.String({ description: 'Unified symbol, BASE/QUOTE.' }),
    bids: Type.Array(LevelSchema, { description: 'Every cached bid, best (highest) first.' }),
    asks: Type.Array(LevelSchema, { description: 'Every cached ask, best (lowest) first.' }),
    exchangeTimestamp: nullable(
      Type.Number({ description: "The venue's own timestamp of the book, epoch ms." }),
      'Null when the venue sends none.',
    ),
    receivedAt: Type.Number({ description: 'When the ingestor received the last update, epoch ms.' }),
    sequence: Type.Integer({ minimum: 0, description: 'Sequence number of the last update folded.' }),
  },
  closed('OrderBook', 'A cached level-2 order book.'),
);

export const SymbolsSchema = Type.Object(
  {
    symbols: Type.Array(Type.String({ description: 'Unified symbol, BASE/QUOTE.' }), {
      description: 'Symbols with at least one fresh, in-sync book at the service clock, sorted.',
    }),
  },
  closed('Symbols', 'The symbols that can route now.'),
);

export const VenueStatusSchema = Type.Object(
  {
    exchangeId: Type.String({ description: 'Venue id.' }),
    connected: Type.Boolean({ description: 'Whether the ingestor holds a live connection to it.' }),
    lastUpdateAt: nullable(
      Type.Number({ description: 'receivedAt of the last record from it, epoch ms.' }),
      'Null before the first record.',
    ),
    updateCount: Type.Integer({
      minimum: 0,
      description: 'Records folded from it since this process started.',
    }),
    reconnectCount: Type.Integer({ minimum: 0, description: 'Reconnections since the ingestor started.' }),
    lastError: nullable(Type.String({ description: 'The last connection error.' }), 'Null when none.'),
  },
  closed('VenueStatus', 'Connection state of one venue.'),
);

export const LogDamageSchema = Type.Object(
  {
    topic: Type.String({ description: 'Topic of the damaged stretch.' }),
    partition: Type.Integer({ minimum: 0 }),
    fromOffset: Type.Integer({ minimum: 0, description: 'First entry that could not be read.' }),
    toOffset: Type.Integer({ minimum: 0, description: 'Entry after the last one that could not be read.' }),
    file: Type.String({ description: 'The segment file (its name) the damage was found in.' }),
    position: Type.Integer({ minimum: 0, description: 'Byte position of the damage in that file.' }),
    reason: Type.String({ description: 'What was wrong with the bytes.' }),
  },
  closed('LogDamage', 'One stretch of the event log that could not be read and was skipped.'),
);

export const StorageStatusSchema = Type.Object(
  {
    status: stringEnum(['starting', 'ok', 'degraded'] as const, 'The event log as this server reads it.'),
    damagedEntries: Type.Integer({
      minimum: 0,
      description: 'Log entries skipped because their bytes are damaged.',
    }),
    damage: Type.Array(LogDamageSchema, { description: 'The first damaged stretches (at most 20).' }),
    problems: Type.Array(Type.String(), {
      description: 'Other findings that need an operator (a stray file, ...).',
    }),
    booksNotRebuilt: Type.Integer({
      minimum: 0,
      description: 'Books the log could not rebuild (no snapshot of them since the server caught up).',
    }),
    marketsWithheld: Type.Array(Type.String(), {
      description:
        "Markets kept out of routing (`exchangeId symbol`, at most 100): the log lost an entry of the venue's partition after its market or venue record, which may have been a newer one; each comes back when the ingestor writes its records again (LISTING_REPUBLISH_MS).",
    }),
    horizon: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'The retention horizon, epoch ms: the first instant asOf and replay can reach (earlier ones are refused, naming it); null while retention has removed nothing.',
    }),
  },
  closed('StorageStatus', 'What this server found reading the event log (docs/operations-log.md "Faults").'),
);

export const ExchangesStatusSchema = Type.Object(
  {
    exchanges: Type.Array(VenueStatusSchema, { description: 'One entry per venue.' }),
    log: StorageStatusSchema,
  },
  closed(
    'ExchangesStatus',
    'Every venue the log has named, and the state of the log itself (an extension of the spec).',
  ),
);

export const HealthSchema = Type.Object(
  {
    status: stringEnum(
      ['starting', 'no_fresh_books', 'degraded', 'ok'] as const,
      'Whether the service can quote: `starting` until the cache has caught up with the event log; `no_fresh_books` when no book is in sync and fresh (every quote is unroutable); `degraded` when fewer than half the known venues have a fresh book, quote journal appends are failing, or reading the log found damage or books it could not rebuild (details in /exchanges/status `log`); `ok` otherwise.',
    ),
    uptimeSec: Type.Integer({ minimum: 0, description: 'Whole seconds since the API started.' }),
  },
  closed('Health', 'Liveness, and whether the service can quote.'),
);

export const ReadinessSchema = Type.Object(
  {
    ready: Type.Boolean({
      description: 'True when the service takes traffic (HTTP 200), else false (HTTP 503).',
    }),
    status: stringEnum(
      ['ready', 'starting', 'stopping'] as const,
      '`starting` until the cache has caught up with the event log; `stopping` once shutdown has begun; `ready` in between.',
    ),
  },
  closed('Readiness', 'Whether an orchestrator should send traffic here (an extension of the spec).'),
);

export type Symbols = Static<typeof SymbolsSchema>;
export type ExchangesStatus = Static<typeof ExchangesStatusSchema>;
export type Health = Static<typeof HealthSchema>;
export type Readiness = Static<typeof ReadinessSchema>;

/** The schemas of this file, as the OpenAPI document lists them. */
export const MARKET_SCHEMAS = [
  ErrorSchema,
  LevelSchema,
  OrderBookSchema,
  SymbolsSchema,
  VenueStatusSchema,
  LogDamageSchema,
  StorageStatusSchema,
  ExchangesStatusSchema,
  HealthSchema,
  ReadinessSchema,
];
