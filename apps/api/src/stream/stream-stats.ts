import type { Subscriber } from './subscriber';

/** The stream's counters (/health, metrics). */
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
  /** Frames the journal refused, since start: never sent, and the client told (frame-out.ts). */
  readonly framesWithheldTotal: number;
  /** Open v2 sockets. */
  readonly sessions: number;
}

/** The counters over the open subscribers, and the totals with those of closed ones added. */
export function subscriberCounts(
  subs: ReadonlySet<Subscriber>,
  closedSent: number,
  closedDropped: number,
): Pick<
  StreamStats,
  | 'subscribers'
  | 'framesSent'
  | 'framesDropped'
  | 'maxBufferedBytes'
  | 'framesSentTotal'
  | 'framesDroppedTotal'
> {
  let framesSent = 0;
  let framesDropped = 0;
  let maxBufferedBytes = 0;
  for (const s of subs) {
    framesSent += s.framesSent;
    framesDropped += s.framesDropped;
    maxBufferedBytes = Math.max(maxBufferedBytes, s.ws.bufferedAmount);
  }
  return {
    subscribers: subs.size,
    framesSent,
    framesDropped,
    maxBufferedBytes,
    framesSentTotal: closedSent + framesSent,
    framesDroppedTotal: closedDropped + framesDropped,
  };
}
