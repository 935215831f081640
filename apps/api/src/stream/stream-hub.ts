import { errorMessage } from '@app/retry';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import { watchSymbols, type RouteRequest } from '@app/routing';
import { BookFeed } from '@app/live-feed';
import { RequestGate } from '../edge/request-gate';
import { Limits, type StreamSlot } from '../limits/limits';
import { QuoteJournal } from '@app/audit';
import { parseRouteQuery, queryOf, type RouteParams } from '@app/request';
import { RouteService, type LiveSolve } from '../route/route.service';
import { SERVER_CONFIG } from '../tokens';
import { errorFrame, SharedFrame } from './frames';
import type { StreamSocket } from './stream-socket';
import { PUSH_FLOOR_MS, Subscriber } from './subscriber';
import { SOLVE_COST_FRAMES } from './frame-budget';
import { FramePump } from './frame-pump';

/** Subscribers with the same normalised request: solved once per tick, the frame shared. */
interface Group {
  readonly key: string;
  readonly params: RouteParams;
  readonly subs: Set<Subscriber>;
  watch: ReadonlySet<string>;
  dirty: boolean;
  /** A tick found it dirty: its new state is solved when one of its subscribers' turn comes (frame-pump.ts). */
  due: boolean;
  /** When the first change not yet answered by a tick was folded (push delay metric). */
  dirtySince: number;
  lastTickAt: number;
  timer: NodeJS.Timeout | null;
}

export interface StreamStats {
  readonly groups: number;
  readonly subscribers: number;
  readonly solves: number;
  /** Frames written to sockets / replaced unsent by a newer state, over the open subscribers. */
  readonly framesSent: number;
  readonly framesDropped: number;
  /** Largest unsent byte count of any open subscriber right now (bounded by backpressure). */
  readonly maxBufferedBytes: number;
  /** Frames sent / dropped since start, closed subscribers included (the metrics' counters). */
  readonly framesSentTotal: number;
  readonly framesDroppedTotal: number;
  /** Subscribers waiting for their turn in the stream budget now, and how often the budget held them. */
  readonly waiting: number;
  readonly budgetWaits: number;
}

const now = (): number => performance.now();

/** The stream's state machine (spec 3, 6; clarifications 11). */
@Injectable()
export class StreamHub implements OnModuleInit, OnModuleDestroy {
  private readonly groups = new Map<string, Group>();
  private readonly watchers = new Map<string, Set<Group>>();
  /** Each open subscriber's place under its address's stream cap. */
  private readonly slots = new Map<Subscriber, StreamSlot>();
  private readonly subs = new Set<Subscriber>();
  private knownSymbols = new Set<string>();
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

  constructor(
    @Inject(BookFeed) private readonly feed: BookFeed,
    @Inject(RouteService) private readonly routes: RouteService,
    @Inject(RequestGate) private readonly gate: RequestGate,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    @Inject(QuoteJournal) private readonly journal: QuoteJournal,
    @Inject(Limits) private readonly limits: Limits,
  ) {
    this.pump = new FramePump(
      config.streamBudget,
      {
        isDue: (sub) => this.groups.get(sub.groupKey)?.due === true,
        solve: (sub) => {
          const group = this.groups.get(sub.groupKey);
          if (group !== undefined) this.solveTick(group);
        },
        deliver: (sub, frame) => this.send(sub, frame),
      },
      now,
    );
  }

  onModuleInit(): void {
    this.knownSymbols = new Set(this.feed.cache.symbols());
    this.unsubscribe = this.feed.onChange((symbols) => this.onBooksChanged(symbols));
    this.heartbeat = setInterval(() => this.beat(), this.config.heartbeatMs);
    this.heartbeat.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.pump.stop();
    for (const g of this.groups.values()) if (g.timer !== null) clearTimeout(g.timer);
    for (const s of this.subs) s.dispose();
  }

  stats(): StreamStats {
    let framesSent = 0;
    let framesDropped = 0;
    let maxBufferedBytes = 0;
    for (const s of this.subs) {
      framesSent += s.framesSent;
      framesDropped += s.framesDropped;
      maxBufferedBytes = Math.max(maxBufferedBytes, s.ws.bufferedAmount);
    }
    return {
      groups: this.groups.size,
      subscribers: this.subs.size,
      solves: this.solves,
      framesSent,
      framesDropped,
      maxBufferedBytes,
      framesSentTotal: this.closedSent + framesSent,
      framesDroppedTotal: this.closedDropped + framesDropped,
      waiting: this.pump.waiting,
      budgetWaits: this.pump.waits,
    };
  }

  /**
   * Shutdown: close every stream with 1001 (going away) and refuse new ones the same way; resolves
   * once every socket is closed (a client that does not answer the close frame is cut after the
   * close timeout). Returns how many streams were open.
   */
  async goAway(): Promise<number> {
    this.goingAway = true;
    const open = [...this.subs];
    await Promise.all(
      open.map(
        (sub) =>
          new Promise<void>((done) => {
            if (sub.ws.readyState === sub.ws.CLOSED) return done();
            sub.ws.once('close', () => done());
            sub.ws.close(1001, 'server shutting down');
          }),
      ),
    );
    return open.length;
  }

  /** A socket passed the IPv4 rule and the rate limit: check the cap and the request, then subscribe. */
  open(ws: StreamSocket, req: IncomingMessage): void {
    if (this.goingAway) return ws.close(1001, 'server shutting down');
    const address =
      this.gate.addressOf(req.socket.remoteAddress, req.headers['x-forwarded-for']) ?? 'unknown';
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

  /** The cap's answer is in: refuse, or check the request and subscribe. */
  private admit(ws: StreamSocket, req: IncomingMessage, address: string, slot: StreamSlot | null): void {
    if (slot === null) {
      return this.refuse(
        ws,
        `connection limit reached: at most ${this.config.streamMaxPerIp} concurrent streams per IP`,
        1013,
        'connection limit reached',
      );
    }
    const parsed = parseRouteQuery(queryOf(req.url ?? ''), 'stream');
    if (!parsed.ok) {
      slot.release();
      return this.refuse(ws, parsed.error, 1008, 'invalid request');
    }
    const solved = this.solve(parsed.params);
    const reason = solved.result.unroutableReason;
    const result = solved.result;
    if (reason === 'no_market' || reason === 'exact_out_multi_hop_unsupported') slot.release();
    if (reason === 'no_market')
      return this.refuse(
        ws,
        `no market or bridge path between ${result.from} and ${result.to}`,
        1008,
        reason,
      );
    if (reason === 'exact_out_multi_hop_unsupported') {
      return this.refuse(
        ws,
        `amountOut is unsupported over a bridge (${result.from} to ${result.to}); re-ask with amountIn`,
        1008,
        reason,
      );
    }

    const group = this.join(parsed.params);
    const sub = new Subscriber(ws, address, group.key, now, (s) => this.pump.ready(s));
    this.slots.set(sub, slot);
    group.subs.add(sub);
    this.subs.add(sub);
    ws.once('close', () => this.leave(sub));
    // The opening frame goes at once (a handshake is answered whatever the load); the budget is
    // charged for it and its solve, so what waits pays for it.
    const frame = this.shared(solved);
    this.pump.charge(SOLVE_COST_FRAMES + 1, frame.bytes);
    this.send(sub, sub.takeNow(frame));
  }

  private refuse(ws: StreamSocket, message: string, code: 1008 | 1013, reason: string): void {
    ws.send(errorFrame(message, code, reason));
    ws.close(code, reason);
  }

  /** One solve; its requestId becomes the tick's id if the result is sent. */
  private solve(params: RouteParams): LiveSolve & { request: RouteRequest } {
    this.solves++;
    const request: RouteRequest = { requestId: randomUUID(), ...params };
    return { request, ...this.routes.solveLive(request) };
  }

  /** Journal a solve as a stream tick; the frames sent from it are journalled as they go out. */
  private shared(solved: LiveSolve & { request: RouteRequest }): SharedFrame {
    const tickId = solved.request.requestId;
    const frame = new SharedFrame(solved.result, tickId);
    frame.journalled = this.journal.record({
      kind: 'stream_tick',
      request: solved.request,
      calculatedAt: solved.result.calculatedAt,
      positions: solved.positions,
      status: null,
      // The tick's own text is the result under the tick id (what `quote <tickId>` reproduces).
      body: frame.stamp(tickId),
    });
    frame.journalled.catch((e: unknown) => this.journalFailed(e));
    return frame;
  }

  /** Stamp a frame with the subscriber's own requestId, journal it, send exactly that text. */
  private send(sub: Subscriber, frame: SharedFrame): void {
    // A frame that cannot be journalled is not sent (the log refuses appends and the queue is full).
    if (!this.journal.accepts('stream')) return;
    const requestId = randomUUID();
    const body = frame.stamp(requestId);
    const journalled = this.journal.recordFrame({
      requestId,
      tickId: frame.tickId,
      calculatedAt: frame.result.calculatedAt,
      body,
    });
    if (this.journal.mode !== 'strict') {
      journalled.catch((e: unknown) => this.journalFailed(e));
      sub.ws.send(body);
      if (frame.changedAt !== null) this.onPush(now() - frame.changedAt);
      return;
    }
    // Strict: the frame leaves only once its record and its tick's record are in the log.
    Promise.all([frame.journalled, journalled]).then(
      () => {
        if (sub.ws.readyState !== sub.ws.OPEN) return;
        sub.ws.send(body);
        if (frame.changedAt !== null) this.onPush(now() - frame.changedAt);
      },
      () => sub.ws.close(1011, 'quote journal unavailable'),
    );
  }

  private journalFailed(e: unknown): void {
    this.logger.error(`quote journal: ${errorMessage(e)}`);
  }

  private join(params: RouteParams): Group {
    const key = JSON.stringify(params);
    let group = this.groups.get(key);
    if (group === undefined) {
      group = {
        key,
        params,
        subs: new Set(),
        watch: new Set(),
        dirty: false,
        due: false,
        dirtySince: 0,
        lastTickAt: now(),
        timer: null,
      };
      this.groups.set(key, group);
      this.rewatch(group);
    }
    return group;
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
    const group = this.groups.get(sub.groupKey);
    if (group === undefined) return;
    group.subs.delete(sub);
    if (group.subs.size > 0) return;
    if (group.timer !== null) clearTimeout(group.timer);
    for (const symbol of group.watch) this.watchers.get(symbol)?.delete(group);
    this.groups.delete(group.key);
  }

  /** Re-derive a group's watch set (spec 6.2); true when it changed. */
  private rewatch(group: Group): boolean {
    const next = new Set(watchSymbols({ requestId: '', ...group.params }, this.feed.cache));
    const changed = next.size !== group.watch.size || [...next].some((s) => !group.watch.has(s));
    if (!changed) return false;
    for (const symbol of group.watch) this.watchers.get(symbol)?.delete(group);
    for (const symbol of next) {
      let set = this.watchers.get(symbol);
      if (set === undefined) this.watchers.set(symbol, (set = new Set()));
      set.add(group);
    }
    group.watch = next;
    return true;
  }

  private onBooksChanged(symbols: ReadonlySet<string>): void {
    let listed = false;
    for (const symbol of symbols) {
      if (!this.knownSymbols.has(symbol)) {
        this.knownSymbols.add(symbol);
        listed = true;
      }
    }
    // A newly listed market can open a path: every group's watch set is re-derived.
    if (listed) for (const group of this.groups.values()) if (this.rewatch(group)) this.markDirty(group);
    for (const symbol of symbols) {
      const groups = this.watchers.get(symbol);
      if (groups !== undefined) for (const group of groups) this.markDirty(group);
    }
  }

  /** Leading and trailing edge: at once after a quiet floor, else once when the floor elapses. */
  private markDirty(group: Group): void {
    if (!group.dirty && !group.due) group.dirtySince = now();
    group.dirty = true;
    if (group.timer !== null) return;
    const wait = Math.max(0, group.lastTickAt + PUSH_FLOOR_MS - now());
    // Even the leading edge waits for the end of this turn so one fold batch is one solve.
    group.timer = setTimeout(() => this.tick(group), Math.ceil(wait));
  }

  /** The floor has passed with changes unanswered: the group's subscribers queue for a frame. */
  private tick(group: Group): void {
    group.timer = null;
    if (!group.dirty || group.subs.size === 0) return;
    group.dirty = false;
    group.due = true;
    for (const sub of group.subs) this.pump.ready(sub);
  }

  /** Solve the group's newest state (one of its subscribers' turn came) and offer it to all of them. */
  private solveTick(group: Group): void {
    group.due = false;
    group.lastTickAt = now();
    this.rewatch(group);
    const frame = this.shared(this.solve(group.params));
    frame.changedAt = group.dirtySince;
    for (const sub of group.subs) sub.offer(frame);
  }

  /** Ping every HEARTBEAT_MS; a socket that missed two pongs is reset and its slot freed (stream-socket.ts). */
  private beat(): void {
    for (const sub of this.subs) sub.ws.beat();
  }
}
