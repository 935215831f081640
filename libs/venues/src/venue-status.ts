import type { VenueRecord } from '@app/events';

/**
 * A venue's connection state as venue records tell it (/exchanges/status): connected once every
 * subscription group has published a good book since its last failure; reconnectCount counts
 * connection losses (a connected venue going down), not the retries while it stays down.
 */
export class VenueStatus {
  private connected = false;
  private lastError: string | null = null;
  private reconnectCount = 0;
  private readonly healthy: boolean[];

  constructor(
    private readonly exchangeId: string,
    private readonly certified: boolean,
    groups: number,
  ) {
    this.healthy = new Array<boolean>(groups).fill(false);
  }

  /** Set the number of subscription groups once symbols are known (all start unhealthy). */
  setGroups(groups: number): void {
    this.healthy.length = 0;
    for (let i = 0; i < groups; i++) this.healthy.push(false);
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /** The current state as a venue record. */
  record(receivedAt: number): VenueRecord {
    return {
      v: 1,
      type: 'venue',
      exchangeId: this.exchangeId,
      certified: this.certified,
      connected: this.connected,
      lastError: this.lastError,
      receivedAt,
      reconnectCount: this.reconnectCount,
    };
  }

  /** A group published a good book; returns true when the venue state changed. */
  groupUp(group: number): boolean {
    if (this.healthy[group] === true) return false;
    this.healthy[group] = true;
    const all = this.healthy.every(Boolean);
    if (all === this.connected) return false;
    this.connected = all;
    return true;
  }

  /** A group (or, with group null, the whole venue) failed; returns true when the state changed. */
  down(group: number | null, error: string): boolean {
    if (group === null) this.healthy.fill(false);
    else this.healthy[group] = false;
    const changed = this.connected || this.lastError !== error;
    if (this.connected) this.reconnectCount++;
    this.connected = false;
    this.lastError = error;
    return changed;
  }
}
