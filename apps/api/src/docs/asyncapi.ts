import { Type } from '@sinclair/typebox';
import { defaultOf, SERVER_DEFAULTS } from '@app/config';
import { ROUTE_RESULT_SCHEMAS, RouteResultSchema } from './result-schema';
import { routeQueryParameters } from '@app/request';
import { API_VERSION } from './document-info';
import { componentSchemas, ref, type JsonObject } from './json-schema';
import { PUSH_FLOOR_MS } from '../stream/subscriber';
import { STREAM_CLOSE_TIMEOUT_MS, STREAM_MAX_CLIENT_MESSAGE_BYTES } from '../stream/stream-socket';
import examplesJson from './examples.json';
import { streamV2Channel, V2_SCHEMAS } from './asyncapi-v2';

const EXAMPLES = examplesJson as Record<string, unknown>;

/** Push floor per socket, as the stream's subscriber enforces it. */
const STREAM_PUSH_FLOOR_MS = PUSH_FLOOR_MS;

/** `{"error","code","reason"}`: sent once before every close the server starts for a reason. */
export const StreamErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'What went wrong; for invalid parameters, the REST 400 message.' }),
    code: Type.Union([Type.Literal(1002), Type.Literal(1008), Type.Literal(1013)], {
      description: 'The close code that follows.',
    }),
    reason: Type.String({ description: 'The close reason that follows.' }),
  },
  {
    $id: 'StreamError',
    additionalProperties: false,
    description: 'The frame sent just before the server closes a stream.',
  },
);

/** Every way the server ends a stream: close code, reason, and whether an error frame precedes it. */
export const STREAM_CLOSES: readonly { code: number; reason: string; errorFrame: boolean; when: string }[] = [
  {
    code: 1008,
    reason: 'invalid request',
    errorFrame: true,
    when: 'A connection parameter is invalid (the error is the REST 400 message).',
  },
  {
    code: 1008,
    reason: 'no_market',
    errorFrame: true,
    when: 'No market or bridge path exists between from and to.',
  },
  {
    code: 1008,
    reason: 'exact_out_multi_hop_unsupported',
    errorFrame: true,
    when: 'amountOut was pinned but only a bridged path exists.',
  },
  {
    code: 1008,
    reason: 'client messages are not accepted',
    errorFrame: true,
    when: `Any data frame from the client, text or binary, of any size or fragmentation: the stream is one-way and never parses what a client sends (a frame announcing more than ${STREAM_MAX_CLIENT_MESSAGE_BYTES} bytes is refused from its header, unread).`,
  },
  {
    code: 1002,
    reason: 'protocol error',
    errorFrame: true,
    when: 'A malformed WebSocket frame (reserved bits or opcodes, an unmasked client frame, a bad control frame).',
  },
  {
    code: 1013,
    reason: 'connection limit reached',
    errorFrame: true,
    when: `STREAM_MAX_PER_IP (${SERVER_DEFAULTS.streamMaxPerIp} by default) streams are already open from this address.`,
  },
  {
    code: 1011,
    reason: 'quote journal unavailable',
    errorFrame: false,
    when: 'JOURNAL_STRICT=true and a frame could not be journalled.',
  },
  {
    code: 1013,
    reason: 'quote journal unavailable',
    errorFrame: true,
    when: 'The quote journal refuses a frame (the log refuses appends and its queue is full): the frame is not sent.',
  },
  {
    code: 1001,
    reason: 'server shutting down',
    errorFrame: false,
    when: 'The server is stopping (SIGTERM): every open stream is closed, and a stream opened meanwhile too; reconnect to another instance or later.',
  },
  {
    code: 1006,
    reason: '',
    errorFrame: false,
    when: 'Heartbeat: two consecutive pings went unanswered; the socket is reset without a close frame.',
  },
];

/** The connection's query parameters: the route-request DTO's, in stream mode. */
function queryBinding(): JsonObject {
  const params = routeQueryParameters('stream');
  const properties: Record<string, unknown> = {};
  for (const p of params)
    properties[String(p.name)] = { ...(p.schema as JsonObject), description: p.description };
  return {
    type: 'object',
    description:
      'The GET /route parameters, in the query string of the upgrade request. includeQuotes defaults to false; balances and asOf are refused (1008 invalid request). Lists are comma-separated.',
    properties,
    required: params.filter((p) => p.required === true).map((p) => p.name),
    additionalProperties: false,
  };
}

const STREAM_DESCRIPTION = [
  'A WebSocket on the HTTP port. The upgrade passes the same IPv4 rule (403) and rate limit (429, with retry-after) as',
  'every HTTP request, and counts against it; the 101 carries the rate-limit headers.',
  '',
  'On open the server sends the current RouteResult at once (a request with no market or only a bridged path for',
  'amountOut is refused instead). After that it sends a new RouteResult whenever a market the route could use moves:',
  'both orientations of the direct pair and of both pairs of every bridge, listed yet or not. Each frame has its own',
  `fresh requestId (a UUID) and is journalled. At most one frame per ${STREAM_PUSH_FLOOR_MS} ms per socket (leading and`,
  'trailing edge: the first move after a quiet period is pushed at once, moves inside the floor coalesce into one',
  'frame computed when it ends). A reader with more than 256 KiB unsent has frames dropped, not queued; the newest',
  'state follows once it drains. Unroutable outcomes of the 200 kinds are frames too; the socket stays open.',
  'After the opening frame, frames go out within a global budget (STREAM_FRAMES_PER_SEC, STREAM_BYTES_PER_SEC),',
  'streams served round-robin by client address; over it a stream gets fewer frames, each the newest state.',
  '',
  `Heartbeat: the server pings every HEARTBEAT_MS (${SERVER_DEFAULTS.heartbeatMs} by default) with a random token; only a pong echoing it`,
  'answers (an unsolicited pong does not). A socket that leaves two consecutive pings unanswered is reset and its',
  'slot freed.',
  '',
  'The stream takes no client messages: the only operations are the server sending. Any data frame from the client',
  "gets the error frame and close 1008 'client messages are not accepted'; a malformed frame gets the error frame and",
  "close 1002 'protocol error'. Pings are answered, one pong at a time (pings arriving while a pong is on its way",
  "out get one pong with the newest payload); after the server's close frame the client has",
  `${STREAM_CLOSE_TIMEOUT_MS} ms to answer it before the connection is reset.`,
].join('\n');

/** The AsyncAPI 3.0 document of GET /stream/route and GET /stream (v2), from the same tables as the OpenAPI document. */
export function buildAsyncApiDocument(): JsonObject {
  const v2 = streamV2Channel();
  const closes = STREAM_CLOSES.map(
    (c) => `| ${c.code} | ${c.reason || '(none)'} | ${c.errorFrame ? 'yes' : 'no'} | ${c.when} |`,
  );
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Route quoting service: route streams',
      version: API_VERSION,
      description: `${STREAM_DESCRIPTION}\n\n| close code | reason | error frame first | when |\n| --- | --- | --- | --- |\n${closes.join('\n')}`,
    },
    defaultContentType: 'application/json',
    servers: {
      api: {
        host: `localhost:${defaultOf('--port')}`,
        protocol: 'ws',
        description: 'The API server itself: the same host and port as the HTTP API (ws:// for http://).',
      },
    },
    channels: {
      routeStream: {
        address: '/stream/route',
        title: 'Route stream',
        description: STREAM_DESCRIPTION,
        servers: [{ $ref: '#/servers/api' }],
        messages: {
          routeResult: { $ref: '#/components/messages/routeResult' },
          streamError: { $ref: '#/components/messages/streamError' },
        },
        bindings: { ws: { method: 'GET', query: queryBinding(), bindingVersion: '0.1.0' } },
      },
      stream: v2.channel,
    },
    operations: {
      sendRouteResult: {
        action: 'send',
        title: 'Route frames',
        summary: `The current route on open, then a new one whenever a watched market moves (at most one per ${STREAM_PUSH_FLOOR_MS} ms).`,
        channel: { $ref: '#/channels/routeStream' },
        messages: [{ $ref: '#/channels/routeStream/messages/routeResult' }],
      },
      sendStreamError: {
        action: 'send',
        title: 'Error frame, then close',
        summary: 'Sent once just before the server closes the socket with the code and reason it names.',
        channel: { $ref: '#/channels/routeStream' },
        messages: [{ $ref: '#/channels/routeStream/messages/streamError' }],
      },
      ...v2.operations,
    },
    components: {
      schemas: componentSchemas(
        [...ROUTE_RESULT_SCHEMAS, StreamErrorSchema, ...V2_SCHEMAS],
        '#/components/schemas/',
      ),
      messages: {
        ...v2.messages,
        routeResult: {
          name: 'RouteResult',
          title: 'Route frame',
          summary: 'A bare RouteResult (includeQuotes defaults to false on the stream).',
          payload: ref(RouteResultSchema),
          ...(EXAMPLES.stream_frame === undefined
            ? {}
            : { examples: [{ name: 'frame', payload: EXAMPLES.stream_frame }] }),
        },
        streamError: {
          name: 'StreamError',
          title: 'Error frame',
          payload: ref(StreamErrorSchema),
          ...(EXAMPLES.stream_error === undefined
            ? {}
            : { examples: [{ name: 'invalid', payload: EXAMPLES.stream_error }] }),
        },
      },
    },
    'x-close-codes': STREAM_CLOSES,
    'x-push-floor-ms': STREAM_PUSH_FLOOR_MS,
    'x-heartbeat': {
      interval: `HEARTBEAT_MS (default ${SERVER_DEFAULTS.heartbeatMs})`,
      terminateAfterMissedPongs: 2,
    },
  };
}
