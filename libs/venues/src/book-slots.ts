import { BookPublisher } from './book-publisher';
import { BookSlot } from './book-slot';
import type { CcxtClient } from './ccxt-venue';
import type { IngestorOptions } from './options';
import type { SubscriptionGroup, SubscriptionPlan } from './subscription-plan';

/** A venue's published books as planned: the subscription groups, a slot per book, and what feeds each. */
export class BookSlots {
  private readonly slots = new Map<string, BookSlot>();
  /** ccxt symbol -> the slots its book feeds (itself and its aliases). */
  private readonly feeds = new Map<string, BookSlot[]>();
  private planned: readonly SubscriptionGroup[] = [];

  constructor(
    private readonly exchangeId: string,
    private readonly opts: Pick<IngestorOptions, 'snapshotEvery' | 'depth' | 'snapshotEveryMs'>,
  ) {}

  /** A slot for every book of `plan` (each subscribed book and its aliases). */
  plan(plan: SubscriptionPlan): void {
    this.planned = plan.groups;
    for (const g of plan.groups) {
      for (const source of g.symbols) {
        for (const symbol of [source, ...(plan.aliasesOf.get(source) ?? [])]) {
          const pub = new BookPublisher(
            this.exchangeId,
            symbol,
            this.opts.snapshotEvery,
            this.opts.depth,
            this.opts.snapshotEveryMs,
          );
          const slot = new BookSlot(symbol, source, g.index, pub);
          this.slots.set(symbol, slot);
          const list = this.feeds.get(source) ?? [];
          list.push(slot);
          this.feeds.set(source, list);
        }
      }
    }
  }

  get groups(): readonly SubscriptionGroup[] {
    return this.planned;
  }

  get size(): number {
    return this.slots.size;
  }

  get(symbol: string): BookSlot | undefined {
    return this.slots.get(symbol);
  }

  /** The slots ccxt's book of `source` feeds (none when it is not watched). */
  fedBy(source: string): readonly BookSlot[] {
    return this.feeds.get(source) ?? NONE;
  }

  /** The slots ccxt's books of `symbols` feed. */
  *fedByAll(symbols: readonly string[]): Iterable<BookSlot> {
    for (const s of symbols) yield* this.fedBy(s);
  }

  values(): IterableIterator<BookSlot> {
    return this.slots.values();
  }

  /** Books whose last publish was a good book. */
  good(): number {
    let n = 0;
    for (const s of this.slots.values()) if (s.good) n++;
    return n;
  }

  /** The watched (not alias) books `client` last delivered. */
  carriedBy(client: CcxtClient): BookSlot[] {
    return [...this.slots.values()].filter((s) => !s.isAlias && s.client === client);
  }
}

const NONE: readonly BookSlot[] = Object.freeze([]);
