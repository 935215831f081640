import { Type, type TSchema } from '@sinclair/typebox';
import { routeBodySchema } from '@app/request';
import { RouteResultSchema } from './result-schema';
import { CLIENT_MESSAGE_MAX_BYTES, MAX_INTERVAL_MS } from '../stream/v2/client-messages';
import { PUSH_FLOOR_MS } from '../stream/subscriber';
import type { JsonObject } from './json-schema';

/** The v2 stream's messages (docs/api.md "Stream protocol v2"), from the server's own constants. */
const Id = Type.String({
  pattern: '^[A-Za-z0-9._:-]{1,64}$',
  description: 'The client-chosen subscription id.',
});
const StreamId = Type.String({ format: 'uuid', description: 'Minted by the server for each subscribe.' });
const Epoch = Type.Integer({ description: 'Epoch milliseconds, the service clock.' });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const closed = { additionalProperties: false } as const;
const kind = <K extends string>(k: K) => Type.Literal(k);

const Positions = Type.Object(
  { books: Type.Array(Type.Integer()), venues: Type.Array(Type.Integer()) },
  { ...closed, description: 'The log positions the solve read.' },
);

export const V2Welcome = Type.Object(
  {
    type: kind('welcome'),
    protocol: Type.Literal('routestream.v2'),
    heartbeatMs: Type.Integer(),
    pushFloorMs: Type.Integer(),
    resumeWindowMs: Type.Integer(),
    limits: Type.Object(
      {
        subscriptionsPerAddress: Type.Integer(),
        messagesPerSec: Type.Integer(),
        messagesBurst: Type.Integer(),
        messageBytes: Type.Integer(),
        subscribesPerMin: Type.Integer(),
      },
      closed,
    ),
    serverTime: Epoch,
  },
  { ...closed, $id: 'V2Welcome', description: 'Always the first message.' },
);

const Verdict = Type.Union([
  Type.Object({ resumed: Type.Literal(true), missedFrames: Type.Integer({ minimum: 0 }) }, closed),
  Type.Object(
    {
      resumed: Type.Literal(false),
      reason: Type.Union(
        ['unknown_stream', 'expired', 'request_mismatch', 'seq_ahead', 'still_open', 'not_closed'].map((r) =>
          Type.Literal(r),
        ),
      ),
    },
    closed,
  ),
]);

export const V2Subscribed = Type.Object(
  {
    type: kind('subscribed'),
    id: Id,
    streamId: StreamId,
    request: Type.Object({}, { description: 'The normalised route request.' }),
    resume: Nullable(Verdict),
  },
  { ...closed, $id: 'V2Subscribed' },
);

export const V2Quote = Type.Object(
  {
    type: kind('quote'),
    id: Id,
    streamId: StreamId,
    seq: Type.Integer({ minimum: 1, description: '1 = opening quote, +1 per quote sent, contiguous.' }),
    tick: Type.Integer({ minimum: 1, description: 'States offered to the subscription so far.' }),
    ticksSkipped: Type.Integer({ minimum: 0, description: 'tick - previous tick - 1.' }),
    cause: Type.Object(
      {
        kind: Type.Union(['open', 'resume', 'book', 'listing', 'staleness'].map((k) => Type.Literal(k))),
        markets: Type.Array(Type.String()),
        positions: Positions,
      },
      closed,
    ),
    validUntil: Nullable(Epoch),
    resultSha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    receipt: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{1,2048}$',
        description:
          'With RECEIPTS=true: the signed receipt of the result bytes, as the x-quote-receipt header of GET /route (docs/audit.md "The receipt").',
      }),
    ),
    result: RouteResultSchema,
  },
  { ...closed, $id: 'V2Quote' },
);

const SubState = {
  id: Id,
  streamId: StreamId,
  seq: Type.Integer({ minimum: 0 }),
  validUntil: Nullable(Epoch),
};

export const V2Heartbeat = Type.Object(
  { type: kind('heartbeat'), serverTime: Epoch, subscriptions: Type.Array(Type.Object(SubState, closed)) },
  { ...closed, $id: 'V2Heartbeat' },
);

export const V2Subscriptions = Type.Object(
  {
    type: kind('subscriptions'),
    subscriptions: Type.Array(Type.Object({ ...SubState, request: Type.Object({}) }, closed)),
  },
  { ...closed, $id: 'V2Subscriptions', description: 'The answer to list.' },
);

export const V2Error = Type.Object(
  {
    type: kind('error'),
    id: Nullable(Id),
    op: Nullable(Type.String()),
    code: Type.Union(
      [
        'bad_message',
        'invalid_request',
        'no_market',
        'exact_out_multi_hop_unsupported',
        'duplicate_id',
        'unknown_id',
        'subscription_limit',
        'rate_limited',
        'journal_unavailable',
        'message_too_large',
      ].map((c) => Type.Literal(c)),
    ),
    status: Type.Integer(),
    message: Type.String(),
  },
  { ...closed, $id: 'V2Error' },
);

export const V2Unsubscribed = Type.Object(
  { type: kind('unsubscribed'), id: Id, streamId: StreamId, lastSeq: Type.Integer({ minimum: 0 }) },
  { ...closed, $id: 'V2Unsubscribed' },
);
export const V2Pong = Type.Object(
  { type: kind('pong'), id: Id, serverTime: Epoch },
  { ...closed, $id: 'V2Pong' },
);
export const V2Goaway = Type.Object(
  { type: kind('goaway'), reason: Type.String(), reconnectAfterMs: Type.Integer() },
  { ...closed, $id: 'V2Goaway', description: 'Sent before close 1001.' },
);

export const V2Subscribe = Type.Object(
  {
    type: kind('subscribe'),
    id: Id,
    route: Type.Unsafe<object>({
      ...routeBodySchema(),
      description: 'The POST /route body; balances and asOf refused.',
    }),
    minIntervalMs: Type.Optional(Type.Integer({ minimum: PUSH_FLOOR_MS, maximum: MAX_INTERVAL_MS })),
    resume: Type.Optional(Type.Object({ streamId: StreamId, seq: Type.Integer({ minimum: 0 }) }, closed)),
  },
  { ...closed, $id: 'V2Subscribe' },
);
export const V2Unsubscribe = Type.Object(
  { type: kind('unsubscribe'), id: Id },
  { ...closed, $id: 'V2Unsubscribe' },
);
export const V2List = Type.Object({ type: kind('list') }, { ...closed, $id: 'V2List' });
export const V2Ping = Type.Object({ type: kind('ping'), id: Id }, { ...closed, $id: 'V2Ping' });

/** Server messages by `type`, and client messages by `type`. */
export const V2_SERVER = {
  welcome: V2Welcome,
  subscribed: V2Subscribed,
  quote: V2Quote,
  heartbeat: V2Heartbeat,
  subscriptions: V2Subscriptions,
  error: V2Error,
  unsubscribed: V2Unsubscribed,
  pong: V2Pong,
  goaway: V2Goaway,
} as const;
const V2_CLIENT = { subscribe: V2Subscribe, unsubscribe: V2Unsubscribe, list: V2List, ping: V2Ping } as const;
export const V2_SCHEMAS: readonly TSchema[] = [...Object.values(V2_SERVER), ...Object.values(V2_CLIENT)];

const CORRELATION = { location: '$message.payload#/id' };
const msgRef = (name: string): JsonObject => ({ $ref: `#/channels/stream/messages/${name}` });
const schemaRef = (s: TSchema): JsonObject => ({ $ref: `#/components/schemas/${String(s.$id)}` });

/** The `stream` channel, its messages and operations (request/reply paired by `id`). */
export function streamV2Channel(): { channel: JsonObject; operations: JsonObject; messages: JsonObject } {
  const messages: JsonObject = {};
  for (const [type, schema] of [...Object.entries(V2_SERVER), ...Object.entries(V2_CLIENT)])
    messages[`v2_${type}`] = {
      name: String(schema.$id),
      payload: schemaRef(schema),
      ...(type === 'welcome' || type === 'heartbeat' || type === 'goaway' || type === 'list'
        ? {}
        : { correlationId: CORRELATION }),
    };
  const channelMessages: JsonObject = {};
  for (const name of Object.keys(messages)) channelMessages[name] = { $ref: `#/components/messages/${name}` };
  const reply = (...names: string[]): JsonObject => ({
    channel: { $ref: '#/channels/stream' },
    messages: names.map((n) => msgRef(`v2_${n}`)),
  });
  const receive = (type: string, summary: string, ...answers: string[]): JsonObject => ({
    action: 'receive',
    channel: { $ref: '#/channels/stream' },
    summary,
    messages: [msgRef(`v2_${type}`)],
    reply: reply(...answers),
  });
  const send = (type: string, summary: string): JsonObject => ({
    action: 'send',
    channel: { $ref: '#/channels/stream' },
    summary,
    messages: [msgRef(`v2_${type}`)],
  });
  return {
    channel: {
      address: '/stream',
      title: 'Multiplexed route stream (subprotocol routestream.v2)',
      description: `Many routes on one socket; client messages are JSON text of at most ${CLIENT_MESSAGE_MAX_BYTES} bytes. Offer the subprotocol routestream.v2 (no or another protocol: a JSON 400, no 101). Replies carry the id of the message they answer.`,
      servers: [{ $ref: '#/servers/api' }],
      messages: channelMessages,
      bindings: { ws: { method: 'GET', bindingVersion: '0.1.0' } },
    },
    operations: {
      v2Subscribe: receive(
        'subscribe',
        'Open a subscription (optionally resuming one).',
        'subscribed',
        'quote',
        'error',
      ),
      v2Unsubscribe: receive('unsubscribe', 'End a subscription.', 'unsubscribed', 'error'),
      v2List: receive('list', 'List the subscriptions.', 'subscriptions'),
      v2Ping: receive('ping', 'Round trip.', 'pong', 'error'),
      v2Welcome: send('welcome', 'The first message.'),
      v2Quote: send('quote', 'A route quote with seq, ticksSkipped, cause and validUntil.'),
      v2Heartbeat: send('heartbeat', 'Every HEARTBEAT_MS: each subscription’s last seq and validUntil.'),
      v2Goaway: send('goaway', 'Before close 1001.'),
    },
    messages,
  };
}
