import { FairQueue, FrameBudget, SOLVE_COST_FRAMES, type StreamBudget } from './frame-budget';
import type { SharedFrame } from './frames';
import type { Subscriber } from './subscriber';

/** The longest the pump holds the event loop before letting requests and folds run (ms). */
const TURN_MS = 4;

/** What the pump asks of the hub. */
export interface PumpHooks {
  /** Whether the subscriber's request has a new state not solved yet. */
  isDue(sub: Subscriber): boolean;
  /** Solve it now; every subscriber of that request is offered the frame. */
  solve(sub: Subscriber): void;
  /** Stamp, journal and write one frame. */
  deliver(sub: Subscriber, frame: SharedFrame): void;
}

/**
 * Every stream frame after the opening one goes out through here (docs/api.md "Stream budget"):
 * subscribers with something to send wait in a queue served round-robin by client address, and a
 * frame (or the solve of a tick, charged SOLVE_COST_FRAMES) goes only while the global budget of
 * frames and bytes per second allows. A subscriber waiting its turn keeps only its newest frame,
 * so over the budget frames are dropped per spec 6.4 and the newest state still lands. The pump
 * gives the event loop back every TURN_MS, so REST requests and the book fold never wait long.
 */
export class FramePump {
  private readonly queue = new FairQueue<Subscriber>();
  private readonly budget: FrameBudget;
  private immediate: NodeJS.Immediate | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Times the budget made the queue wait (metrics). */
  waits = 0;

  constructor(
    budget: StreamBudget,
    private readonly hooks: PumpHooks,
    private readonly now: () => number,
  ) {
    this.budget = new FrameBudget(budget, now());
  }

  get waiting(): number {
    return this.queue.size;
  }

  /** The subscriber has something to send (a frame, or a request with a new state to solve). */
  ready(sub: Subscriber): void {
    this.queue.push(sub.address, sub);
    this.schedule();
  }

  forget(sub: Subscriber): void {
    this.queue.delete(sub.address, sub);
  }

  /** Charge what went out without waiting (an opening frame and its solve). */
  charge(frames: number, bytes: number): void {
    this.budget.charge(frames, bytes, this.now());
  }

  stop(): void {
    if (this.immediate !== null) clearImmediate(this.immediate);
    if (this.timer !== null) clearTimeout(this.timer);
    this.immediate = null;
    this.timer = null;
  }

  private schedule(): void {
    if (this.immediate === null && this.timer === null)
      this.immediate = setImmediate(() => {
        this.immediate = null;
        this.run();
      });
  }

  private waitFor(frames: number, bytes: number): void {
    this.waits++;
    const ms = Math.max(1, Math.ceil(this.budget.waitFor(frames, bytes, this.now())));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run();
    }, ms);
  }

  private run(): void {
    const started = this.now();
    for (let next = this.queue.peek(); next !== null; next = this.queue.peek()) {
      const t = this.now();
      if (t - started >= TURN_MS) return this.schedule();
      const { key, item: sub } = next;
      // A new state is solved for a stream that has delivered the last one, or that cannot take a
      // frame now anyway (a slow reader: its waiting frame is replaced, spec 6.4). One whose frame
      // only waited for the budget sends it first: with the budget tight, each solve is followed
      // by its frames instead of replacing them unsent.
      if (this.hooks.isDue(sub) && (sub.pendingFrame() === null || !sub.canSendNow())) {
        if (!this.budget.allows(SOLVE_COST_FRAMES + 1, 0, t)) return this.waitFor(SOLVE_COST_FRAMES + 1, 0);
        this.budget.charge(SOLVE_COST_FRAMES, 0, t);
        this.hooks.solve(sub);
      }
      const frame = sub.pendingFrame();
      if (frame !== null && !this.budget.allows(1, frame.bytes, t)) return this.waitFor(1, frame.bytes);
      this.queue.take(key, sub);
      // Not sendable yet (push floor, a full socket): the subscriber asks again when it is.
      const taken = sub.take();
      if (taken === null) continue;
      this.budget.charge(1, taken.bytes, t);
      this.hooks.deliver(sub, taken);
      // A newer state is waiting to be solved: the stream takes its turn again for it.
      if (this.hooks.isDue(sub)) this.queue.push(key, sub);
    }
  }
}
