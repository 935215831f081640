import type { StreamSocket } from './stream-socket';
import type { SharedFrame } from './frames';

/** Push floor per stream (spec 4.3, 6.3). */
export const PUSH_FLOOR_MS = 100;
/** Above this many unsent bytes a subscriber's frames are dropped, not queued (spec 6.4). */
export const MAX_BUFFERED_BYTES = 256 * 1024;
/** How often a blocked subscriber is checked for drain. */
const DRAIN_POLL_MS = 20;

/**
 * One open stream socket: sends the newest frame subject to the 100 ms floor and backpressure,
 * keeping at most one pending frame (the newest) while it waits.
 */
export class Subscriber {
  private lastSentAt = -Infinity;
  private pending: SharedFrame | null = null;
  private timer: NodeJS.Timeout | null = null;
  framesSent = 0;
  framesDropped = 0;

  constructor(
    readonly ws: StreamSocket,
    readonly address: string,
    readonly groupKey: string,
    private readonly now: () => number,
    /** Stamps the frame with a fresh requestId, journals it and writes it to the socket. */
    private readonly deliver: (sub: Subscriber, frame: SharedFrame) => void,
  ) {}

  /** Offer the newest state; it replaces any frame still waiting. */
  offer(frame: SharedFrame): void {
    if (this.pending !== null) this.framesDropped++;
    this.pending = frame;
    this.flush();
  }

  private flush(): void {
    this.timer = null;
    const frame = this.pending;
    if (frame === null || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) return this.retryIn(DRAIN_POLL_MS);
    const wait = this.lastSentAt + PUSH_FLOOR_MS - this.now();
    if (wait > 0) return this.retryIn(wait);
    this.pending = null;
    this.lastSentAt = this.now();
    this.framesSent++;
    this.deliver(this, frame);
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
