/** The stream's global budget (STREAM_FRAMES_PER_SEC, STREAM_BYTES_PER_SEC; docs/api.md "Stream budget"). */
export interface StreamBudget {
  readonly framesPerSec: number;
  readonly bytesPerSec: number;
}

/** Push floor per stream (spec 4.3, 6.3). */
export const PUSH_FLOOR_MS = 100;

/** What one tick's solve is charged, in frames: a solve costs about as much CPU as this many frames. */
export const SOLVE_COST_FRAMES = 5;
/** The bucket holds at most this much of a second's budget (one push floor's worth). */
const BURST_SEC = 0.1;

/**
 * Token buckets for frames and bytes, refilled continuously at their rates up to BURST_SEC of
 * either. Time is an argument (monotonic ms). A charge may take a bucket below zero (an opening
 * frame is never held back); what follows then waits until the debt is repaid.
 */
export class FrameBudget {
  private frames: number;
  private bytes: number;
  private at: number;

  constructor(
    private readonly budget: StreamBudget,
    now: number,
  ) {
    this.frames = budget.framesPerSec * BURST_SEC;
    this.bytes = budget.bytesPerSec * BURST_SEC;
    this.at = now;
  }

  /** Whether `frames` frames of `bytes` bytes in all may go now. */
  allows(frames: number, bytes: number, now: number): boolean {
    this.refill(now);
    return this.frames >= frames && this.bytes >= bytes;
  }

  charge(frames: number, bytes: number, now: number): void {
    this.refill(now);
    this.frames -= frames;
    this.bytes -= bytes;
  }

  /** How long (ms) until `frames` frames of `bytes` bytes may go. */
  waitFor(frames: number, bytes: number, now: number): number {
    this.refill(now);
    const f = Math.max(0, frames - this.frames) / this.budget.framesPerSec;
    const b = Math.max(0, bytes - this.bytes) / this.budget.bytesPerSec;
    return Math.max(f, b) * 1000;
  }

  private refill(now: number): void {
    const dt = Math.max(0, now - this.at) / 1000;
    this.at = now;
    this.frames = Math.min(this.budget.framesPerSec * BURST_SEC, this.frames + dt * this.budget.framesPerSec);
    this.bytes = Math.min(this.budget.bytesPerSec * BURST_SEC, this.bytes + dt * this.budget.bytesPerSec);
  }
}

/** A first-in first-out queue on an array (O(1) at both ends; dead head room compacted). */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  first(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    const item = this.items[this.head];
    if (item === undefined) return undefined;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** One key's items oldest first; `members` says which are still waiting (deletion is lazy). */
interface Lane<T> {
  readonly key: string;
  readonly items: Fifo<T>;
  readonly members: Set<T>;
}

/**
 * Items waiting their turn, served round-robin by key (the client address): each key in turn
 * gives its oldest item, so an address with many streams gets no more turns than one with a
 * single stream. An item waits at most once. Every operation is O(1) (amortised), however many
 * items a key holds or how many keys wait.
 */
export class FairQueue<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  /** Keys with waiting items, in turn order. */
  private readonly turns = new Fifo<Lane<T>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(key: string, item: T): void {
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { key, items: new Fifo(), members: new Set() };
      this.lanes.set(key, lane);
      this.turns.push(lane);
    }
    if (lane.members.has(item)) return;
    lane.members.add(item);
    lane.items.push(item);
    this.count++;
  }

  /** The next item in turn, without taking it. */
  peek(): { readonly key: string; readonly item: T } | null {
    for (;;) {
      const lane = this.turns.first();
      if (lane === undefined) return null;
      if (this.lanes.get(lane.key) !== lane) {
        // Emptied by delete(): its turn is dropped here.
        this.turns.shift();
        continue;
      }
      let item = lane.items.first();
      while (item !== undefined && !lane.members.has(item)) {
        lane.items.shift();
        item = lane.items.first();
      }
      if (item !== undefined) return { key: lane.key, item };
      this.turns.shift();
      this.lanes.delete(lane.key);
    }
  }

  /** Take `item` (the one peek() gave): its key goes to the back of the turn order. */
  take(key: string, item: T): void {
    const lane = this.lanes.get(key);
    if (lane === undefined || this.turns.first() !== lane || lane.items.first() !== item) {
      this.delete(key, item);
      return;
    }
    lane.items.shift();
    lane.members.delete(item);
    this.count--;
    this.turns.shift();
    if (lane.members.size > 0) this.turns.push(lane);
    else this.lanes.delete(key);
  }

  delete(key: string, item: T): void {
    const lane = this.lanes.get(key);
    if (lane === undefined || !lane.members.delete(item)) return;
    this.count--;
    if (lane.members.size === 0) this.lanes.delete(key);
  }
}
