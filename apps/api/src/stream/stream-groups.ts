import type { BookCache } from '@app/books';
import type { RouteParams } from '@app/request';
import { watchSymbols } from '@app/routing';
import type { Subscriber } from './subscriber';
import { PUSH_FLOOR_MS } from './subscriber';
import type { CauseKind } from './v2/server-messages';

/** Subscribers with the same normalised request: solved once per tick, the frame shared. */
export interface Group {
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
  /** v2 groups carry causes and validUntil, and are re-solved when their books turn stale. */
  readonly v2: boolean;
  /** The watched markets that moved since the last tick, and why the next tick is solved. */
  moved: Set<string>;
  cause: CauseKind;
  staleTimer: NodeJS.Timeout | null;
}

/**
 * The stream's groups and what they watch (spec 6.2-6.3): a book change marks the groups watching
 * its market dirty; after the push floor each dirty group is due (its subscribers queue in the
 * frame pump, which solves it). v2 groups also remember which markets moved and why, and are
 * marked dirty with cause `staleness` when their route's books turn stale (`armStaleness`).
 */
export class StreamGroups {
  private readonly groups = new Map<string, Group>();
  private readonly watchers = new Map<string, Set<Group>>();
  private knownSymbols = new Set<string>();

  constructor(
    private readonly cache: () => BookCache,
    /** The group is due: its subscribers queue for a frame. */
    private readonly due: (group: Group) => void,
    private readonly clockNow: () => number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.groups.size;
  }

  get(key: string): Group | undefined {
    return this.groups.get(key);
  }

  start(): void {
    this.knownSymbols = new Set(this.cache().symbols());
  }

  stop(): void {
    for (const g of this.groups.values()) this.stopTimers(g);
  }

  join(params: RouteParams, v2: boolean): Group {
    // v1 and v2 never share a group: v1's frames stay exactly as they were (no staleness pushes).
    const key = `${v2 ? 'v2' : 'v1'}${JSON.stringify(params)}`;
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
        lastTickAt: this.now(),
        timer: null,
        v2,
        moved: new Set(),
        cause: 'book',
        staleTimer: null,
      };
      this.groups.set(key, group);
      this.rewatch(group);
    }
    return group;
  }

  leave(sub: Subscriber): void {
    const group = this.groups.get(sub.groupKey);
    if (group === undefined) return;
    group.subs.delete(sub);
    if (group.subs.size > 0) return;
    this.stopTimers(group);
    for (const symbol of group.watch) this.watchers.get(symbol)?.delete(group);
    this.groups.delete(group.key);
  }

  /** Staleness (docs/api.md): when no newer tick came by validUntil, a fresh solve is pushed. */
  armStaleness(group: Group, validUntil: number | null): void {
    if (group.staleTimer !== null) clearTimeout(group.staleTimer);
    group.staleTimer = null;
    if (validUntil === null) return;
    const wait = validUntil - this.clockNow();
    if (wait < 0) return;
    group.staleTimer = setTimeout(
      () => {
        group.staleTimer = null;
        group.cause = 'staleness';
        this.markDirty(group);
      },
      Math.ceil(wait) + 1,
    );
    group.staleTimer.unref();
  }

  private stopTimers(group: Group): void {
    if (group.timer !== null) clearTimeout(group.timer);
    if (group.staleTimer !== null) clearTimeout(group.staleTimer);
  }

  /** Re-derive a group's watch set (spec 6.2); true when it changed. */
  rewatch(group: Group): boolean {
    const next = new Set(watchSymbols({ requestId: '', ...group.params }, this.cache()));
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

  onBooksChanged(symbols: ReadonlySet<string>): void {
    let listed = false;
    for (const symbol of symbols) {
      if (!this.knownSymbols.has(symbol)) {
        this.knownSymbols.add(symbol);
        listed = true;
      }
    }
    // A newly listed market can open a path: every group's watch set is re-derived.
    if (listed)
      for (const group of this.groups.values())
        if (this.rewatch(group)) {
          group.cause = 'listing';
          this.markDirty(group);
        }
    for (const symbol of symbols) {
      const groups = this.watchers.get(symbol);
      if (groups === undefined) continue;
      for (const group of groups) {
        if (group.v2) group.moved.add(symbol);
        if (group.cause === 'staleness') group.cause = 'book';
        this.markDirty(group);
      }
    }
  }

  /** Leading and trailing edge: at once after a quiet floor, else once when the floor elapses. */
  private markDirty(group: Group): void {
    if (!group.dirty && !group.due) group.dirtySince = this.now();
    group.dirty = true;
    if (group.timer !== null) return;
    const wait = Math.max(0, group.lastTickAt + PUSH_FLOOR_MS - this.now());
    // Even the leading edge waits for the end of this turn so one fold batch is one solve.
    group.timer = setTimeout(() => this.tick(group), Math.ceil(wait));
  }

  /** The floor has passed with changes unanswered: the group's subscribers queue for a frame. */
  private tick(group: Group): void {
    group.timer = null;
    if (!group.dirty || group.subs.size === 0) return;
    group.dirty = false;
    group.due = true;
    this.due(group);
  }
}
