import type { StreamSocket } from './stream-socket';
import type { SharedFrame } from './frames';
import type { Subscription } from './v2/subscription';
import { PUSH_FLOOR_MS } from './frame-budget';

export { PUSH_FLOOR_MS };

/** Above this many unsent bytes a subscriber's frames are dropped, not queued (spec 6.4). */
export const MAX_BUFFERED_BYTES = 256 * 1024;
/** How often a blocked subscriber is checked for drain. */
const DRAIN_POLL_MS = 20;

/**
 * One open stream socket: keeps at most one pending frame (the newest) and says when it may be
 * sent (the 100 ms floor passed, the socket drained); the frame pump (frame-pump.ts) takes it
 * when its turn in the global budget comes.
 */
export class Subscriber {
  private lastSentAt = -Infinity;
  private pending: SharedFrame | null = null;
  private timer: NodeJS.Timeout | null = null;
  framesSent = 0;
  framesDropped = 0;
  /** Frames taken for sending that the journal refused (frame-out.ts). */
  framesWithheld = 0;
  /** States offered to this stream so far, the opening one included (v2's `tick`). */
  ticks = 0;

  constructor(
    readonly ws: StreamSocket,
    readonly address: string,
    readonly groupKey: string,
    private readonly now: () => number,
    /** Told when a pending frame may be sent (the pump queues the subscriber). */
    private readonly ready: (sub: Subscriber) => void,
    /** A v2 subscription's envelope state; null on the one-route stream. */
    readonly v2: Subscription | null = null,
    /** The least time between two frames (a v2 subscription's minIntervalMs). */
    private readonly floorMs = PUSH_FLOOR_MS,
  ) {}

  /** Offer the newest state; it replaces any frame still waiting. */
  offer(frame: SharedFrame): void {
    this.ticks++;
    if (this.pending !== null) this.framesDropped++;
    this.pending = frame;
    this.flush();
  }

  /** The frame waiting to be sent, if any. */
  pendingFrame(): SharedFrame | null {
    return this.pending;
  }

  /** The pending frame, taken for sending now; null (and a retry armed) when it may not go yet. */
  take(): SharedFrame | null {
    const frame = this.pending;
    if (frame === null || !this.sendable()) return null;
    this.pending = null;
    this.sent();
    return frame;
  }

  /** Send `frame` now, outside the budget's queue (the opening frame). */
  takeNow(frame: SharedFrame): SharedFrame {
    this.ticks++;
    this.sent();
    return frame;
  }

  /** A frame taken for sending was not sent (the journal refused it). */
  withheld(): void {
    this.framesSent--;
    this.framesWithheld++;
  }

  private sent(): void {
    this.lastSentAt = this.now();
    this.framesSent++;
  }

  private flush(): void {
    this.timer = null;
    if (this.pending !== null && this.sendable()) this.ready(this);
  }

  /** Whether a frame could be written now (open, drained, past the floor); arms nothing. */
  canSendNow(): boolean {
    return (
      this.ws.readyState === this.ws.OPEN &&
      this.ws.bufferedAmount <= MAX_BUFFERED_BYTES &&
      this.lastSentAt + this.floorMs <= this.now()
    );
  }

  /** Open, drained and past the floor; otherwise a retry is armed for when it may be. */
  private sendable(): boolean {
    if (this.ws.readyState !== this.ws.OPEN) return false;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.retryIn(DRAIN_POLL_MS);
      return false;
    }
    const wait = this.lastSentAt + this.floorMs - this.now();
    if (wait > 0) {
      this.retryIn(wait);
      return false;
    }
    return true;
  }

  private retryIn(ms: number): void {
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), Math.ceil(ms));
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }
}
