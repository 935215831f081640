import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import type { RouteRequest } from '@app/routing';
import { BookFeed } from '@app/live-feed';
import { EventLog } from '@app/event-log';
import { RequestGate } from '../edge/request-gate';
import { Limits, type StreamSlot } from '../limits/limits';
import { QuoteJournal } from '@app/audit';
import { parseRouteQuery, queryOf, type RouteParams } from '@app/request';
import { RouteService, type LiveSolve } from '../route/route.service';
import { RECEIPT_KEYS, SERVER_CONFIG } from '../tokens';
import type { ReceiptKeys } from '../receipts/key-store';
import { receiptSigner } from '../receipts/quote-receipt';
import { Clock } from '../clock';
import { STREAM_V2_PROTOCOL } from '../edge/front-door';
import { errorFrame, routeProblem, type SharedFrame } from './frames';
import type { StreamSocket } from './stream-socket';
import { PUSH_FLOOR_MS, Subscriber } from './subscriber';
import { SOLVE_COST_FRAMES } from './frame-budget';
import { FramePump } from './frame-pump';
import { StreamGroups, type Group } from './stream-groups';
import { FrameOut } from './frame-out';
import type { ResumePoint } from './v2/client-messages';
import { StreamLedger } from './v2/stream-ledger';
import type { CauseKind, ErrorFields, ResumeVerdict } from './v2/server-messages';
import { heartbeatMessage, subscribedMessage, welcomeMessage } from './v2/server-messages';
import {
  MESSAGES_BURST,
  MESSAGES_PER_SEC,
  StreamSession,
  SUBSCRIBES_PER_MIN,
  type SessionHost,
} from './v2/session';
import { CLIENT_MESSAGE_MAX_BYTES } from './v2/client-messages';
import { Subscription } from './v2/subscription';
import { envelopeQuery } from './v2/envelope-query';
import { validUntilOf } from './v2/valid-until';
import { subscriberCounts, type StreamStats } from './stream-stats';

export type { StreamStats };

const now = (): number => performance.now();

/** The stream's state machine (spec 3, 6; clarifications 11). */
@Injectable()
export class StreamHub implements OnModuleInit, OnModuleDestroy, SessionHost {
  private readonly groups: StreamGroups;
  /** Each open subscriber's place under its address's stream cap. */
  private readonly slots = new Map<Subscriber, StreamSlot>();
  private readonly subs = new Set<Subscriber>();
  private readonly sessions = new Set<StreamSession>();
  private readonly ledger: StreamLedger;
  private unsubscribe: (() => void) | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private goingAway = false;
  private solves = 0;
  /** Frames of subscribers that have left, so the totals never go down. */
  private closedSent = 0;
  private closedDropped = 0;
  /** Told the delay (ms) from a folded book change to each frame written for it (metrics). */
  onPush: (delayMs: number) => void = () => undefined;
  private readonly logger = new Logger('StreamHub');
  private readonly pump: FramePump;
  private readonly out: FrameOut;

  constructor(
    @Inject(BookFeed) private readonly feed: BookFeed,
    @Inject(RouteService) private readonly routes: RouteService,
    @Inject(RequestGate) private readonly gate: RequestGate,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    @Inject(QuoteJournal) private readonly journal: QuoteJournal,
    @Inject(Limits) private readonly limits: Limits,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(EventLog) log: EventLog,
    @Inject(RECEIPT_KEYS) keys: ReceiptKeys,
  ) {
    this.ledger = new StreamLedger(config.resumeWindowMs, journal, () => clock.now(), this.logger, log);
    const sign = config.receipts.attach ? receiptSigner(keys.key) : null;
    this.out = new FrameOut(journal, this.logger, (ms) => this.onPush(ms), sign);
    this.groups = new StreamGroups(
      () => feed.cache,
      (group) => {
        for (const sub of group.subs) this.pump.ready(sub);
      },
      () => clock.now(),
      now,
    );
    this.pump = new FramePump(
      config.streamBudget,
      {
        isDue: (sub) => this.groups.get(sub.groupKey)?.due === true,
        solve: (sub) => {
          const group = this.groups.get(sub.groupKey);
          if (group !== undefined) this.solveTick(group);
        },
        deliver: (sub, frame) => this.out.deliver(sub, frame),
      },
      now,
    );
  }

  onModuleInit(): void {
    this.ledger.warm();
    this.groups.start();
    this.unsubscribe = this.feed.onChange((symbols) => this.groups.onBooksChanged(symbols));
    this.heartbeat = setInterval(() => this.beat(), this.config.heartbeatMs);
    this.heartbeat.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.pump.stop();
    this.groups.stop();
    for (const s of this.subs) s.dispose();
  }

  stats(): StreamStats {
    return {
      groups: this.groups.size,
      solves: this.solves,
      ...subscriberCounts(this.subs, this.closedSent, this.closedDropped),
      waiting: this.pump.waiting,
      budgetWaits: this.pump.waits,
      framesWithheldTotal: this.out.withheldTotal,
      sessions: this.sessions.size,
    };
  }

  /**
   * Shutdown: close every stream with 1001 (going away) and refuse new ones the same way; resolves
   * once every socket is closed (a client that does not answer the close frame is cut after the
   * close timeout). Returns how many streams were open.
   */
  async goAway(): Promise<number> {
    this.goingAway = true;
    for (const session of this.sessions) session.goaway('server shutting down', 1000);
    const open = [...new Set([...this.subs].map((s) => s.ws)), ...[...this.sessions].map((s) => s.ws)];
    const count = open.length;
    await Promise.all(
      [...new Set(open)].map(
        (sub) =>
          new Promise<void>((done) => {
            if (sub.readyState === sub.CLOSED) return done();
            sub.once('close', () => done());
            sub.close(1001, 'server shutting down');
          }),
      ),
    );
    return count;
  }

  /** A socket passed the IPv4 rule and the rate limit: check the cap and the request, then subscribe. */
  open(ws: StreamSocket, req: IncomingMessage): void {
    if (this.goingAway) return ws.close(1001, 'server shutting down');
    const address =
      this.gate.addressOf(req.socket.remoteAddress, req.headers['x-forwarded-for']) ?? 'unknown';
    if (ws.protocol === STREAM_V2_PROTOCOL) return this.openSession(ws, address);
    const taken = this.limits.streams.take(address);
    if (!(taken instanceof Promise)) return this.admit(ws, req, address, taken);
    // Shared cap (Redis): the socket may close while the slot is asked for.
    taken.then(
      (slot) => {
        if (ws.readyState === ws.OPEN) return this.admit(ws, req, address, slot);
        slot?.release();
      },
      (e: unknown) => this.logger.error(`stream slot: ${String(e)}`),
    );
  }

  /** The cap's answer is in: refuse, or check the request (and a resume point) and subscribe. */
  private admit(ws: StreamSocket, req: IncomingMessage, address: string, slot: StreamSlot | null): void {
    if (slot === null) {
      return this.refuse(
        ws,
        `connection limit reached: at most ${this.config.streamMaxPerIp} concurrent streams per IP`,
        1013,
        'connection limit reached',
      );
    }
    const envelope = envelopeQuery(queryOf(req.url ?? ''));
    const parsed = envelope.ok ? parseRouteQuery(envelope.route, 'stream') : envelope;
    if (!parsed.ok) {
      slot.release();
      return this.refuse(ws, parsed.error, 1008, 'invalid request');
    }
    const v2 = envelope.ok && envelope.v2;
    const resume = v2 ? envelope.resume : null;
    const verdict = resume === null ? null : this.verdict(resume, parsed.params);
    const go = (v: ResumeVerdict | null): void =>
      this.begin(
        ws,
        address,
        slot,
        parsed.params,
        v2,
        resume === null || v === null ? null : { point: resume, verdict: v },
      );
    if (!(verdict instanceof Promise)) return go(verdict);
    // The journal was asked about the resume point: the socket may close meanwhile.
    verdict.then(
      (v) => (ws.readyState === ws.OPEN ? go(v) : slot.release()),
      () => slot.release(),
    );
  }

  /** Solve the opening frame and subscribe; on the old path, `v2` says the client asked for the envelope. */
  private begin(
    ws: StreamSocket,
    address: string,
    slot: StreamSlot,
    params: RouteParams,
    v2: boolean,
    claimed: Subscription['claimed'],
  ): void {
    const solved = this.solve(params);
    const problem = routeProblem(solved.result);
    if (problem !== null) {
      slot.release();
      return this.refuse(ws, problem.message, 1008, problem.code);
    }
    const subscription = v2 ? this.oldPathSubscription(ws, params, claimed) : null;
    const group = this.groups.join(params, subscription !== null);
    const sub = new Subscriber(ws, address, group.key, now, (s) => this.pump.ready(s), subscription);
    ws.once('close', () => this.end(sub, 'closed'));
    this.start(sub, group, slot, solved);
  }

  /** `envelope=v2` on /stream/route: one subscription (id `route`), announced before its first quote. */
  private oldPathSubscription(
    ws: StreamSocket,
    params: RouteParams,
    claimed: Subscription['claimed'],
  ): Subscription {
    const openCause = claimed === null ? 'open' : 'resume';
    const subscription = new Subscription(
      'route',
      randomUUID(),
      params,
      openCause,
      this.clock.now(),
      true,
      claimed,
    );
    this.ledger.opened(subscription);
    ws.send(subscribedMessage(subscription.id, subscription.streamId, params, claimed?.verdict ?? null));
    return subscription;
  }

  /** A subscriber joins its group; the opening frame goes at once (a handshake is answered whatever the load). */
  private start(sub: Subscriber, group: Group, slot: StreamSlot, solved: Solved): void {
    this.slots.set(sub, slot);
    group.subs.add(sub);
    this.subs.add(sub);
    // The budget is charged for the opening frame and its solve, so what waits pays for it.
    const frame = this.frameOf(solved, group, null, sub.v2?.openCause);
    this.pump.charge(SOLVE_COST_FRAMES + 1, frame.bytes);
    this.out.deliver(sub, sub.takeNow(frame));
  }

  private refuse(ws: StreamSocket, message: string, code: 1008 | 1013, reason: string): void {
    ws.send(errorFrame(message, code, reason));
    ws.close(code, reason);
  }

  /** A routestream.v2 socket: the welcome first, then the client's messages (v2/session.ts). */
  private openSession(ws: StreamSocket, address: string): void {
    const session = new StreamSession(ws, address, this, now);
    this.sessions.add(session);
    ws.once('close', () => this.sessions.delete(session));
    session.send(
      welcomeMessage({
        heartbeatMs: this.config.heartbeatMs,
        pushFloorMs: PUSH_FLOOR_MS,
        resumeWindowMs: this.config.resumeWindowMs,
        limits: {
          subscriptionsPerAddress: this.config.streamMaxPerIp,
          messagesPerSec: MESSAGES_PER_SEC,
          messagesBurst: MESSAGES_BURST,
          messageBytes: CLIENT_MESSAGE_MAX_BYTES,
          subscribesPerMin: SUBSCRIBES_PER_MIN,
        },
        serverTime: this.clock.now(),
      }),
    );
  }

  takeSlot(address: string): StreamSlot | null | Promise<StreamSlot | null> {
    return this.limits.streams.take(address);
  }

  verdict(point: ResumePoint, params: RouteParams): ResumeVerdict | Promise<ResumeVerdict> {
    return this.ledger.verdict(point, params);
  }

  serverTime(): number {
    return this.clock.now();
  }

  subscribe(
    session: StreamSession,
    subscription: Subscription,
    minIntervalMs: number,
    slot: StreamSlot,
    announce: () => void,
  ): Omit<ErrorFields, 'id' | 'op'> | Subscriber {
    if (this.goingAway) return { code: 'rate_limited', status: 503, message: 'server shutting down' };
    const solved = this.solve(subscription.params);
    const problem = routeProblem(solved.result);
    if (problem !== null) return { ...problem, status: 400 };
    const group = this.groups.join(subscription.params, true);
    const ready = (s: Subscriber): void => this.pump.ready(s);
    const sub = new Subscriber(
      session.ws,
      session.address,
      group.key,
      now,
      ready,
      subscription,
      minIntervalMs,
    );
    this.ledger.opened(subscription);
    announce();
    this.start(sub, group, slot, solved);
    return sub;
  }

  end(sub: Subscriber, reason: 'unsubscribed' | 'closed'): void {
    if (sub.v2 !== null) this.ledger.closed(sub.v2, this.goingAway ? 'shutdown' : reason);
    this.leave(sub);
  }

  /** One solve; its requestId becomes the tick's id if the result is sent. */
  private solve(params: RouteParams): Solved {
    this.solves++;
    const request: RouteRequest = { requestId: randomUUID(), ...params };
    return { request, ...this.routes.solveLive(request) };
  }

  /**
   * The tick's frame, journalled (a v2 group's with its cause: `opening`'s for an opening frame,
   * cause null); a v2 frame carries its cause and validUntil, and arms the staleness push.
   */
  private frameOf(
    solved: Solved,
    group: Group,
    cause: CauseKind | null = null,
    opening: 'open' | 'resume' = 'open',
  ): SharedFrame {
    const markets = cause === null ? [] : [...group.moved].sort();
    const frame = this.out.tick(solved, group.v2 ? { kind: cause ?? opening, markets } : undefined);
    frame.positions = solved.positions;
    if (!group.v2) return frame;
    frame.validUntil = validUntilOf(solved.result, this.feed.routable());
    if (cause !== null) frame.cause = { kind: cause, markets, positions: solved.positions };
    this.groups.armStaleness(group, frame.validUntil);
    return frame;
  }

  private leave(sub: Subscriber): void {
    sub.dispose();
    this.pump.forget(sub);
    if (this.subs.delete(sub)) {
      this.closedSent += sub.framesSent;
      this.closedDropped += sub.framesDropped;
    }
    this.slots.get(sub)?.release();
    this.slots.delete(sub);
    this.groups.leave(sub);
  }

  /** Solve the group's newest state (one of its subscribers' turn came) and offer it to all of them. */
  private solveTick(group: Group): void {
    group.due = false;
    group.lastTickAt = now();
    this.groups.rewatch(group);
    const frame = this.frameOf(this.solve(group.params), group, group.cause);
    group.moved = new Set();
    group.cause = 'book';
    frame.changedAt = group.dirtySince;
    for (const sub of group.subs) sub.offer(frame);
  }

  /** Ping every HEARTBEAT_MS; a socket that missed two pongs is reset and its slot freed (stream-socket.ts). */
  private beat(): void {
    for (const sub of this.subs) {
      if (sub.v2 === null) sub.ws.beat();
      else if (sub.v2.oldPath && sub.ws.beat()) {
        const { id, streamId, seq, validUntil } = sub.v2;
        sub.ws.send(heartbeatMessage(this.clock.now(), [{ id, streamId, seq, validUntil }]));
      }
    }
    for (const session of this.sessions) session.beat();
  }
}

type Solved = LiveSolve & { request: RouteRequest };
