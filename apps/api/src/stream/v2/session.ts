import { randomUUID } from 'node:crypto';
import type { StreamSlot } from '../../limits/limits';
import type { StreamSocket } from '../stream-socket';
import { MAX_BUFFERED_BYTES, type Subscriber } from '../subscriber';
import { parseClientMessage, type ClientMessage } from './client-messages';
import {
  errorMessage,
  goawayMessage,
  heartbeatMessage,
  listMessage,
  pongMessage,
  subscribedMessage,
  unsubscribedMessage,
  type ErrorFields,
  type ResumeVerdict,
} from './server-messages';
import { Subscription } from './subscription';

/** Client messages per second on one socket, on average (a bucket refilled at this rate)... */
export const MESSAGES_PER_SEC = 5;
/** ...that holds this many: a client may open its streams' worth of subscriptions at once. */
export const MESSAGES_BURST = 10;
/** Subscribes per minute on one socket. */
export const SUBSCRIBES_PER_MIN = 60;
/** Refused messages (over a limit or malformed) a socket may pile up before it is closed 1008; one is forgiven per second. */
const STRIKES_MAX = 20;

type Subscribe = Extract<ClientMessage, { type: 'subscribe' }>;

/** What a session asks of the hub (stream-hub.ts). */
export interface SessionHost {
  /** A place under the address's stream cap (null: the cap is reached). */
  takeSlot(address: string): StreamSlot | null | Promise<StreamSlot | null>;
  /** Whether a resume point can be proven, and what was missed (a promise when the journal is asked). */
  verdict(
    resume: NonNullable<Subscribe['resume']>,
    params: Subscribe['params'],
  ): ResumeVerdict | Promise<ResumeVerdict>;
  /** Solve and admit; `announce` is called before the opening quote goes out. */
  subscribe(
    session: StreamSession,
    subscription: Subscription,
    minIntervalMs: number,
    slot: StreamSlot,
    announce: () => void,
  ): Omit<ErrorFields, 'id' | 'op'> | Subscriber;
  /** The subscription ends (unsubscribe or close): its slot is freed and its end remembered for resumes. */
  end(sub: Subscriber, reason: 'unsubscribed' | 'closed'): void;
  serverTime(): number;
}

/** Token bucket in whole tokens; time (ms) is an argument. */
class Bucket {
  private tokens: number;
  constructor(
    private readonly size: number,
    private readonly perMs: number,
    private at: number,
  ) {
    this.tokens = size;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.size, this.tokens + (now - this.at) * this.perMs);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

/**
 * One `routestream.v2` socket (docs/api.md "Stream protocol v2"): reads client messages under
 * the per-socket limits, keeps its subscriptions by client id, answers each operation by id.
 * Over a limit, that operation gets an error and the socket stays open; a client that keeps
 * sending what is refused is closed 1008.
 */
export class StreamSession {
  readonly subs = new Map<string, Subscriber | 'pending'>();
  private readonly messages: Bucket;
  private readonly subscribes: Bucket;
  private strikes = 0;
  private strikesAt: number;

  constructor(
    readonly ws: StreamSocket,
    readonly address: string,
    private readonly host: SessionHost,
    private readonly now: () => number,
  ) {
    const t = now();
    this.messages = new Bucket(MESSAGES_BURST, MESSAGES_PER_SEC / 1000, t);
    this.subscribes = new Bucket(SUBSCRIBES_PER_MIN, SUBSCRIBES_PER_MIN / 60_000, t);
    this.strikesAt = t;
    ws.messages = (data, isBinary) => this.onMessage(data, isBinary);
    ws.once('close', () => {
      for (const sub of this.subs.values()) if (sub !== 'pending') host.end(sub, 'closed');
      this.subs.clear();
    });
  }

  send(text: string): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }

  /** A heartbeat browsers can see, with each subscription's last seq and validUntil; and a ping. */
  beat(): void {
    if (!this.ws.beat()) return;
    const states = [];
    for (const sub of this.subs.values())
      if (sub !== 'pending' && sub.v2 !== null) states.push(state(sub.v2));
    this.send(heartbeatMessage(this.host.serverTime(), states));
  }

  goaway(reason: string, reconnectAfterMs: number): void {
    this.send(goawayMessage(reason, reconnectAfterMs));
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (!this.messages.take(this.now()))
      return this.refuse({
        id: null,
        op: null,
        code: 'rate_limited',
        status: 429,
        message: `at most ${MESSAGES_PER_SEC} messages per second (bursts of ${MESSAGES_BURST}): this one was not read`,
      });
    const parsed = parseClientMessage(data, isBinary);
    if (!parsed.ok) {
      const { id, op, code, status, message } = parsed;
      return this.refuse({ id, op, code, status, message });
    }
    const m = parsed.message;
    switch (m.type) {
      case 'ping':
        return this.send(pongMessage(m.id, this.host.serverTime()));
      case 'list': {
        const all = [];
        for (const sub of this.subs.values())
          if (sub !== 'pending' && sub.v2 !== null) all.push({ ...state(sub.v2), request: sub.v2.params });
        return this.send(listMessage(all));
      }
      case 'unsubscribe':
        return this.unsubscribe(m.id);
      case 'subscribe':
        return this.subscribe(m);
    }
  }

  private unsubscribe(id: string): void {
    const sub = this.subs.get(id);
    if (sub === undefined || sub === 'pending' || sub.v2 === null)
      return this.refuse({
        id,
        op: 'unsubscribe',
        code: 'unknown_id',
        status: 404,
        message: `no subscription ${JSON.stringify(id)} on this connection`,
      });
    this.subs.delete(id);
    this.host.end(sub, 'unsubscribed');
    this.send(unsubscribedMessage(id, sub.v2.streamId, sub.v2.seq));
  }

  private subscribe(m: Subscribe): void {
    const op = 'subscribe';
    if (this.subs.has(m.id))
      return this.refuse({
        id: m.id,
        op,
        code: 'duplicate_id',
        status: 409,
        message: `subscription id ${JSON.stringify(m.id)} is in use on this connection`,
      });
    if (!this.subscribes.take(this.now()))
      return this.refuse({
        id: m.id,
        op,
        code: 'rate_limited',
        status: 429,
        message: `at most ${SUBSCRIBES_PER_MIN} subscribes per minute`,
      });
    const taken = this.host.takeSlot(this.address);
    if (!(taken instanceof Promise)) return this.admit(m, taken);
    this.subs.set(m.id, 'pending');
    taken.then(
      (slot) => {
        if (this.ws.readyState === this.ws.OPEN && this.subs.get(m.id) === 'pending')
          return this.admit(m, slot);
        slot?.release();
      },
      () => this.subs.delete(m.id),
    );
  }

  private admit(m: Subscribe, slot: StreamSlot | null): void {
    this.subs.delete(m.id);
    if (slot === null)
      return this.error({
        id: m.id,
        op: 'subscribe',
        code: 'subscription_limit',
        status: 429,
        message:
          'stream limit reached: subscriptions count against the per-address stream cap (welcome.limits.subscriptionsPerAddress)',
      });
    const verdict = m.resume === null ? null : this.host.verdict(m.resume, m.params);
    if (!(verdict instanceof Promise)) return this.open(m, slot, verdict);
    // The journal was asked about the resume point: the socket may close, or the id go, meanwhile.
    this.subs.set(m.id, 'pending');
    verdict.then(
      (v) => {
        if (this.ws.readyState !== this.ws.OPEN || this.subs.get(m.id) !== 'pending') return slot.release();
        this.subs.delete(m.id);
        this.open(m, slot, v);
      },
      () => {
        this.subs.delete(m.id);
        slot.release();
      },
    );
  }

  /** Solve the opening frame and subscribe, announcing the verdict of the resume point (if any). */
  private open(m: Subscribe, slot: StreamSlot, verdict: ResumeVerdict | null): void {
    const subscription = new Subscription(
      m.id,
      randomUUID(),
      m.params,
      m.resume === null ? 'open' : 'resume',
      this.host.serverTime(),
      false,
      m.resume === null || verdict === null ? null : { point: m.resume, verdict },
    );
    const made = this.host.subscribe(this, subscription, m.minIntervalMs, slot, () =>
      this.send(subscribedMessage(m.id, subscription.streamId, m.params, verdict)),
    );
    if ('code' in made) {
      slot.release();
      return this.error({ id: m.id, op: 'subscribe', ...made });
    }
    this.subs.set(m.id, made);
  }

  /** An error for a refused message: counted as a strike; persistent abuse closes 1008. */
  private refuse(e: ErrorFields): void {
    const t = this.now();
    const forgiven = Math.floor((t - this.strikesAt) / 1000);
    this.strikes = Math.max(0, this.strikes - forgiven);
    this.strikesAt += forgiven * 1000;
    if (++this.strikes > STRIKES_MAX) return this.ws.close(1008, 'too many refused messages');
    this.error(e);
  }

  /** Errors are not queued behind a client that does not read (its strikes close it instead). */
  private error(e: ErrorFields): void {
    if (this.ws.bufferedAmount <= MAX_BUFFERED_BYTES) this.send(errorMessage(e));
  }
}

const state = (
  s: Subscription,
): { id: string; streamId: string; seq: number; validUntil: number | null } => ({
  id: s.id,
  streamId: s.streamId,
  seq: s.seq,
  validUntil: s.validUntil,
});
