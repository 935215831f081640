import { ROUTE_RESULT_SCHEMAS, RouteResultSchema } from './result-schema';
import { REQUEST_LIMITS, routeBodySchema, routeQueryParameters } from '@app/request';
import { API_OVERVIEW, API_VERSION } from './document-info';
import { componentSchemas, type JsonObject } from './json-schema';
import {
  errorResponse,
  gateHeaders,
  gateResponseRefs,
  headerComponents,
  jsonResponse,
  responseComponents,
} from './responses';
import {
  ErrorSchema,
  ExchangesStatusSchema,
  HealthSchema,
  MARKET_SCHEMAS,
  ReadinessSchema,
  OrderBookSchema,
  SymbolsSchema,
} from './schemas';
import { STREAM_PATH } from '../edge/front-door';
import examplesJson from './examples.json';
import { EXPLAIN_SCHEMAS, ExplainedRouteSchema } from './explain-schema';
import { AUDIT_SCHEMAS, KeysSchema } from './audit-schemas';
import { auditOperations } from './audit-operations';

/** Responses captured from the running demo by scripts/capture-examples.mjs (never written by hand). */
const EXAMPLES = examplesJson as Record<string, unknown>;
const ex = (...names: string[]): Record<string, unknown> =>
  Object.fromEntries(names.filter((n) => EXAMPLES[n] !== undefined).map((n) => [n, EXAMPLES[n]]));

const REQUEST_ID: JsonObject = {
  name: 'x-request-id',
  in: 'header',
  required: false,
  description:
    'Your id for this request: echoed (header and RouteResult requestId) when it matches ^[\\w.-]{1,200}$; any other value is replaced by a minted UUID without complaint.',
  schema: { type: 'string' },
};
// Any other text is a 404 (no such book); one over the 100-character segment cap a 414.
const pathParam = (name: string, description: string, pattern: string, example: string): JsonObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', pattern },
  example,
});
const ASSET_ID = '[A-Za-z0-9._-]{1,32}';
const asOf = routeQueryParameters('rest').find((p) => p.name === 'asOf');
const BOOK_AS_OF: JsonObject = {
  ...asOf,
  description:
    'The book as it was at this instant (epoch ms, a plain integer, not later than the service clock, not before the oldest state the event log holds), rebuilt from the event log.',
};

/** A quote's answers carry its receipt. */
const RECEIPT = ['x-quote-receipt'];
const routeResponses = (extra: Record<string, JsonObject>): Record<string, JsonObject> => ({
  '200': jsonResponse(
    'A RouteResult. Unroutable outcomes other than the two below are 200 too, with an unroutableReason.',
    RouteResultSchema,
    ex('route_ok', 'route_bridged', 'route_executable', 'route_unroutable'),
    RECEIPT,
  ),
  '400': errorResponse(
    'A parameter is missing, malformed, out of range (an amount below 1e-12 included), unknown or repeated (the message names it, or the cap it exceeds); a body that is not UTF-8 (the first bad byte named); or the request is malformed before any parameter is read (no Host in HTTP/1.1 or two Hosts, a bad percent-escape, not HTTP/1.x).',
    ex('route_bad_request'),
  ),
  '404': jsonResponse(
    'No market or bridge path exists between from and to: a full RouteResult with unroutableReason no_market.',
    RouteResultSchema,
    ex('route_no_market'),
    RECEIPT,
  ),
  ...extra,
  '501': jsonResponse(
    'amountOut was pinned but only a bridged path exists: a full RouteResult with unroutableReason exact_out_multi_hop_unsupported.',
    RouteResultSchema,
    ex('route_exact_out_bridged'),
    RECEIPT,
  ),
  '503': errorResponse(
    'JOURNAL_STRICT=true and the quote journal could not record the quote, so it is not served.',
  ),
});

/** GET /route/explain: the /route statuses, each with the explained body. */
const explainResponses = (): Record<string, JsonObject> => {
  const route = routeResponses({
    '414': errorResponse('The query string is longer than 4096 characters.', ex('query_too_long')),
  });
  const explained = (description: string): JsonObject => jsonResponse(description, ExplainedRouteSchema, {});
  return {
    ...route,
    '200': explained('The result, its proof and its constraint costs.'),
    '404': explained('No market or bridge path: result has unroutableReason no_market.'),
    '501': explained(
      'amountOut pinned over a bridged path only: result has exact_out_multi_hop_unsupported.',
    ),
  };
};

const bookResponses = (): Record<string, JsonObject> => ({
  '200': jsonResponse('Every cached level, best first.', OrderBookSchema, ex('orderbook')),
  '400': errorResponse(
    'asOf is malformed, in the future or older than the event log; an unknown or repeated parameter; or the request is malformed before any parameter is read (no Host in HTTP/1.1, a bad percent-escape, not HTTP/1.x).',
    ex('orderbook_bad_as_of'),
  ),
  '404': errorResponse(
    'No book of that venue and symbol was ever cached (or none existed at asOf).',
    ex('orderbook_not_found'),
  ),
});

type Operation = JsonObject & { responses: Record<string, JsonObject> };

/** Every operation of the HTTP API: the one table the document is built from. */
function operations(): Record<string, Record<string, Operation>> {
  const book = (id: string, summary: string, params: JsonObject[]): Operation => ({
    tags: ['market'],
    operationId: id,
    summary,
    parameters: [...params, BOOK_AS_OF, REQUEST_ID],
    responses: bookResponses(),
  });
  const plain = (id: string, tag: string, summary: string, response: JsonObject): Operation => ({
    tags: [tag],
    operationId: id,
    summary,
    parameters: [REQUEST_ID],
    responses: { '200': response },
  });
  // The documents are fixed for the life of the process: an ETag lets a reader revalidate.
  const served = (id: string, summary: string, type: string, schema: JsonObject): Operation => {
    const ok = jsonResponse('The document.', schema, {}, ['etag', 'cache-control']);
    return {
      tags: ['meta'],
      operationId: id,
      summary,
      parameters: [REQUEST_ID],
      responses: {
        '200': { ...ok, content: { [type]: { schema } } },
        '304': { description: 'Not modified: If-None-Match named the current ETag.', headers: ok.headers },
      },
    };
  };
  const exchange = pathParam(
    'exchange',
    'Venue id, as /exchanges/status lists it.',
    '^[A-Za-z0-9_-]{1,64}$',
    'sim00',
  );
  return {
    '/route': {
      get: {
        tags: ['route'],
        operationId: 'getRoute',
        summary: 'Quote a conversion',
        description:
          'Solves the conversion over the cached books (or those of a past instant with asOf) and journals the result. Lists are comma-separated; an explicitly empty bridges or exchanges means none.',
        parameters: [...routeQueryParameters('rest'), REQUEST_ID],
        responses: routeResponses({}),
      },
      post: {
        tags: ['route'],
        operationId: 'postRoute',
        summary: 'Quote a conversion (JSON body)',
        description:
          'The same as GET /route with the parameters in a JSON object (recommended for balances). Query parameters are refused (400).',
        parameters: [REQUEST_ID],
        requestBody: {
          required: true,
          description: 'At most 64 KiB; strict JSON (a repeated key is 400).',
          content: { 'application/json': { schema: routeBodySchema(), examples: bodyExamples() } },
        },
        responses: routeResponses({
          '415': errorResponse(
            'The Content-Type is not one the server can parse (send application/json, in UTF-8: another charset is 415 too; other text types are 400).',
            ex('media_type'),
          ),
        }),
      },
    },
    [STREAM_PATH]: {
      get: {
        tags: ['route'],
        operationId: 'openRouteStream',
        summary: 'The route stream (WebSocket; described in /asyncapi.json)',
        description:
          'A WebSocket endpoint: open it with a WebSocket handshake (Upgrade: websocket) and the GET /route parameters in the query string; the frames, close codes and parameters are in /asyncapi.json. A plain HTTP request is 426 whatever its query; a handshake passes the gate first (403, 429) and is checked before the WebSocket server sees it.',
        parameters: [REQUEST_ID],
        responses: {
          '101': {
            description: 'Switching Protocols: the stream is open (only for a WebSocket handshake).',
            headers: gateHeaders(),
          },
          '400': errorResponse(
            'A handshake with a missing or malformed Sec-WebSocket-Key or Sec-WebSocket-Protocol, or without Host in HTTP/1.1.',
          ),
          '426': jsonResponse(
            'Not a WebSocket handshake (no Upgrade: websocket), or one with a Sec-WebSocket-Version other than 13 or 8 (then sec-websocket-version lists them).',
            ErrorSchema,
            ex('stream_plain_http'),
            ['upgrade', 'sec-websocket-version'],
          ),
        },
      },
    },
    '/route/explain': {
      get: {
        tags: ['route'],
        operationId: 'explainRoute',
        summary: 'Quote a conversion with its proof and the cost of each constraint (extension)',
        description:
          'An extension beyond the spec. The GET /route parameters, parser, limits and gate; answers { result, proof, constraintCosts } from one snapshot: result is the RouteResult GET /route would give (journalled the same way, so replay quote reproduces it), proof the walk-the-book proof of that very solve, constraintCosts what the other strategies, paths and the request without each active constraint would give (docs/explain.md).',
        'x-extension': true,
        parameters: [...routeQueryParameters('rest'), REQUEST_ID],
        responses: explainResponses(),
      },
    },
    '/orderbook/{exchange}/{symbol}': {
      get: book('getOrderBook', 'A cached order book (symbol URL-encoded: BTC%2FUSDT)', [
        exchange,
        pathParam(
          'symbol',
          'Unified symbol with its slash URL-encoded, e.g. BTC%2FUSDT.',
          `^${ASSET_ID}/${ASSET_ID}$`,
          'BTC/USDT',
        ),
      ]),
    },
    '/orderbook/{exchange}/{base}/{quote}': {
      get: book('getOrderBookByPair', 'The same book with the slash unencoded (/orderbook/sim00/BTC/USDT)', [
        exchange,
        pathParam('base', 'Base asset of the symbol.', `^${ASSET_ID}$`, 'BTC'),
        pathParam('quote', 'Quote asset of the symbol.', `^${ASSET_ID}$`, 'USDT'),
      ]),
    },
    '/symbols': {
      get: plain(
        'getSymbols',
        'market',
        'Symbols that can route now',
        jsonResponse('Sorted symbols.', SymbolsSchema, ex('symbols')),
      ),
    },
    '/exchanges/status': {
      get: plain(
        'getExchangesStatus',
        'market',
        'Connection state per venue',
        jsonResponse('One entry per venue.', ExchangesStatusSchema, ex('exchanges_status')),
      ),
    },
    '/health': {
      get: plain(
        'getHealth',
        'meta',
        'Liveness',
        jsonResponse(
          'Always 200 while the process answers (liveness); status says whether it can quote. For readiness see /ready.',
          HealthSchema,
          ex('health'),
        ),
      ),
    },
    '/ready': {
      get: {
        tags: ['meta'],
        operationId: 'getReady',
        summary: 'Readiness, for orchestrators (extension)',
        parameters: [REQUEST_ID],
        responses: {
          '200': jsonResponse('Takes traffic: the cache has caught up with the event log.', ReadinessSchema, {
            ready: { ready: true, status: 'ready' },
          }),
          '503': jsonResponse(
            'Starting (catching up with the event log) or stopping (shutdown has begun); retry-after says when to ask again.',
            ReadinessSchema,
            {
              starting: { ready: false, status: 'starting' },
              stopping: { ready: false, status: 'stopping' },
            },
            ['retry-after'],
          ),
        },
        'x-extension': true,
      },
    },
    '/keys': {
      get: {
        ...plain(
          'getKeys',
          'meta',
          'Public keys of quote receipts and checkpoints (extension)',
          jsonResponse(
            'Every key this origin signed with; docs/audit.md says how to check one.',
            KeysSchema,
            {
              keys: {
                keys: [
                  {
                    origin: 'route-service/main',
                    keyId: 'dc97567a',
                    publicKey: '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=',
                    notBefore: 0,
                    notAfter: null,
                  },
                ],
              },
            },
          ),
        ),
        'x-extension': true,
      },
    },
    ...auditOperations(REQUEST_ID),
    '/openapi.json': {
      get: served('getOpenApi', 'This document (OpenAPI 3.1)', 'application/json', { type: 'object' }),
    },
    '/asyncapi.json': {
      get: served('getAsyncApi', 'The stream (GET /stream/route) in AsyncAPI 3.0', 'application/json', {
        type: 'object',
      }),
    },
    '/explorer': {
      get: {
        ...served(
          'getExplorer',
          'The route explorer page (extension; one self-contained HTML page)',
          'text/html',
          {
            type: 'string',
          },
        ),
        'x-extension': true,
      },
    },
    '/docs': {
      get: served('getDocs', 'The interactive reference (one self-contained HTML page)', 'text/html', {
        type: 'string',
      }),
    },
  };
}

function bodyExamples(): JsonObject {
  return {
    amount_in: { value: { from: 'USDT', to: 'BTC', amountIn: 1000, strategy: 'split_optimal' } },
    with_balances: {
      value: { from: 'USDT', to: 'BTC', amountIn: 1000, balances: { USDT: 600, 'sim01.USDT': 400 } },
    },
  };
}

/** The OpenAPI 3.1 document, built from the route-request DTO, the response schemas and the operation table. */
export function buildOpenApiDocument(): JsonObject {
  const paths = operations();
  // The gate's statuses, declared once, join every operation; an operation's own answer of the
  // same status (with its own description and examples) stands instead of the shared one.
  for (const item of Object.values(paths))
    for (const op of Object.values(item))
      op.responses = sortStatuses({ ...gateResponseRefs(), ...op.responses });
  return {
    openapi: '3.1.0',
    info: { title: 'Route quoting service', version: API_VERSION, description: API_OVERVIEW },
    servers: [{ url: '/', description: 'This server.' }],
    tags: [
      { name: 'route', description: 'Quotes.' },
      { name: 'market', description: 'The cached books and venues.' },
      { name: 'meta', description: 'Health and the documents themselves.' },
    ],
    paths,
    components: {
      schemas: componentSchemas(
        [...ROUTE_RESULT_SCHEMAS, ...MARKET_SCHEMAS, ...EXPLAIN_SCHEMAS, ...AUDIT_SCHEMAS],
        '#/components/schemas/',
      ),
      responses: responseComponents(),
      headers: headerComponents(),
    },
    'x-limits': { ...REQUEST_LIMITS, bodyBytes: 64 * 1024 },
  };
}

function sortStatuses(responses: Record<string, JsonObject>): Record<string, JsonObject> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}
