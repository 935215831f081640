export { createApiClient, serializeQuery } from './client';
export type {
  ApiClient,
  ErrorBody,
  Health,
  Hop,
  Leg,
  OrderBook,
  PathConsidered,
  Quote,
  RouteBody,
  RouteQuery,
  RouteResult,
  Schemas,
  VenueStatus,
} from './client';
export { openRouteStream, routeStreamUrl } from './stream';
export type {
  RouteStream,
  RouteStreamHandlers,
  StreamErrorFrame,
  StreamQuery,
  WebSocketLike,
} from './stream';
export type { components, operations, paths } from './openapi';
