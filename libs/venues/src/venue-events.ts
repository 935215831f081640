import type { EventRecord } from '@app/events';
import type { CcxtClient } from './ccxt-venue';
import type { SubscriptionGroup, SubscriptionPlan } from './subscription-plan';

/**
 * What a venue's connection tells (venue-connection.ts): its plan, what ccxt delivered, and how
 * each subscription fared. Told synchronously, in the order things happen.
 */
export type ConnectionEvents = {
  /** Markets are loaded and the books planned into subscription groups; the watch loops start next. */
  planned: [plan: SubscriptionPlan];
  /** ccxt resolved `result` on `client` (every venue resolves its live book after applying a change). */
  resolved: [result: unknown, client: CcxtClient];
  /** ccxt handled `message` from `client`: told only when someone listened before the venue started. */
  handled: [message: unknown, client: CcxtClient];
  /** `group` subscribes again after its connection went (or for the first time). */
  subscribing: [group: SubscriptionGroup];
  /** `group`'s watch was rejected because one of its books was unsubscribed alone. */
  unsubscribed: [group: SubscriptionGroup];
  /** `group`'s watch was rejected for a sequence gap or a checksum mismatch (ccxt's own checks). */
  integrityFailed: [group: SubscriptionGroup, kind: 'gap' | 'checksum', error: unknown];
  /** `group`'s subscription failed otherwise (its connection, a refusal): it subscribes again. */
  groupLost: [group: SubscriptionGroup];
  /** The circuit breaker parked the venue until `untilMs` (epoch ms); nothing is tried before. */
  parked: [untilMs: number];
  /** A good book closed the breaker of a parked venue. */
  unparked: [];
};

/** What a venue's book pipeline tells (book-pipeline.ts): good books, and connections to close. */
export type BookEvents = {
  /**
   * A good book of `group` received at `receivedAt` went into `batch`, the records this publish
   * writes together once it ends; a venue record it brings about goes in after it.
   */
  published: [group: number, receivedAt: number, batch: EventRecord[]];
  /** Resynchronise every book `client` carried: close it; `groups` subscribe again. */
  closeConnection: [client: CcxtClient, groups: ReadonlySet<number>, reason: string];
  /** Resynchronise every book of the venue: close every connection. */
  closeAllConnections: [reason: string];
};
