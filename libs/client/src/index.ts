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
export { RouteStreamV2, STREAM_V2_PROTOCOL } from './stream-v2';
export type {
  ResumeVerdict,
  SendingWebSocket,
  StreamRoute,
  StreamV2Handlers,
  StreamV2Options,
  V2Error,
  V2Quote,
} from './stream-v2';
