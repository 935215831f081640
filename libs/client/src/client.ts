import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './openapi';

/** The response and request shapes of the API, as the OpenAPI document declares them. */
export type Schemas = components['schemas'];
export type RouteResult = Schemas['RouteResult'];
export type Hop = Schemas['Hop'];
export type Leg = Schemas['Leg'];
export type Quote = Schemas['Quote'];
export type PathConsidered = Schemas['PathConsidered'];
export type OrderBook = Schemas['OrderBook'];
export type VenueStatus = Schemas['VenueStatus'];
export type Health = Schemas['Health'];
export type ErrorBody = Schemas['Error'];
/** GET /route's query parameters. */
export type RouteQuery = operations['getRoute']['parameters']['query'];
/** POST /route's body. */
export type RouteBody = NonNullable<operations['postRoute']['requestBody']>['content']['application/json'];

/** A typed client of the HTTP API (openapi-fetch over the generated `paths`). */
export type ApiClient = Client<paths>;

/**
 * A client of the API at `baseUrl` (e.g. http://127.0.0.1:3000). Lists in query strings are sent
 * comma-separated (the document's `style: form, explode: false`), and an empty list is sent as
 * `name=`: in this API an explicitly empty `bridges` or `exchanges` means none, where leaving it
 * out means the default (openapi-fetch's own serializer would drop it).
 */
export function createApiClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): ApiClient {
  return createClient<paths>({ baseUrl, querySerializer: serializeQuery, ...options });
}

/** name=value pairs, percent-encoded; lists comma-joined, empty lists kept; undefined left out. */
export function serializeQuery(query: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value)
      ? value.map((v) => encodeURIComponent(String(v))).join(',')
      : encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
    pairs.push(`${encodeURIComponent(name)}=${text}`);
  }
  return pairs.join('&');
}
