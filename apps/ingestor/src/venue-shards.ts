import type { ShardConfig } from '@app/config';
import {
  LogError,
  logSink,
  ShardGroup,
  type EventLog,
  type GatedWriter,
  type RecordSink,
} from '@app/event-log';
import type { ServiceLogger } from '@app/telemetry';
import type { EventRecord } from '@app/events';
import type { Ingestor, IngestorOptions, VenueHealth, VenueSettings } from '@app/venues';

/** Slots of the shard group: venue i (by exchangeId) is slot i mod SLOTS. */
export const SHARD_SLOTS = 64;
/**
 * A slot that arrives starts its venues this much later, so requests its previous owner had sent
 * before it gave the slot up usually land first. The previous owner sends nothing for the slot
 * after giving it up (its slot writer is shut then, kafkajs's retries included), so this concerns
 * only a request the broker had received and not yet written; one written later still is fenced
 * by the owner epoch (readers ignore its deltas), and this delay is also what orders the epochs.
 */
export const HANDOVER_MS = 1_000;

/** What the shards need from the process: its log, its options, how to build an ingestor. */
export interface VenueShardsOptions {
  readonly shards: ShardConfig;
  readonly brokers: readonly string[];
  readonly topicPrefix: string;
  readonly replicationFactor: number;
  /** The ingestor's options for every configured venue. */
  readonly options: IngestorOptions;
  /** The log the venues' records go to (each slot writes through a gate in front of it). */
  readonly log: EventLog;
  /** A writer of the log whose sending can be stopped at once (KafkaLog.gatedWriter): one per slot. */
  readonly writer: (may: () => boolean) => GatedWriter;
  readonly logger: ServiceLogger;
  /** Build the ingestor of some venues writing into `sink` (the process's Ingestor class). */
  readonly ingestor: (options: IngestorOptions) => Ingestor;
  /** What the process wraps its sinks in (the console tally). */
  readonly tap: (sink: RecordSink) => RecordSink;
}

/** The gate of one running Ingestor: records pass only while it is open. */
interface Gate {
  open: boolean;
  /** The slot's own writer: shut with the gate, so nothing is sent for the slot while it is closed. */
  readonly writer: GatedWriter;
}

interface Shard {
  readonly slot: number;
  readonly venues: readonly VenueSettings[];
  /** The slot's running Ingestor and its own gate (a halted one's gate never opens again). */
  running: { readonly ingestor: Ingestor; readonly gate: Gate } | null;
}

/**
 * INGESTOR_GROUP: the configured venues split between the live ingestors of one group (Kafka
 * consumer group membership, libs/event-log ShardGroup), each venue run by exactly one of them. Every
 * slot has its own Ingestor writing through a gate: closed the moment this process may no longer
 * own the slot (a rebalance starting, its lease lapsing), so a venue is never published by two
 * ingestors at once. The slot's writer (its own Kafka client) is shut at the same moment: an
 * append already under way stops sending too (kafkajs retries a produce for seconds inside one
 * send). A closed gate refuses writes as an outage would: the slot's record writer holds its
 * records and retries, and if the slot stays here every book is republished as a snapshot when
 * the gate opens again; if it moved, the slot's venues are stopped. A slot that arrives starts its
 * venues afresh (each book opens with a snapshot), every book record stamped with the run's owner
 * epoch, higher than any earlier owner's, so readers ignore what an earlier owner's request still
 * writes after that snapshot (docs/events.md "Owner epochs").
 */
export class VenueShards {
  private readonly shards: Shard[];
  private readonly group: ShardGroup;
  private owned = new Set<number>();
  /** The last owner epoch this process gave a run (each new one is above it). */
  private lastEpoch = 0;

  /** The states and counters of the venues this process runs now (its slots' ingestors). */
  health(): VenueHealth[] {
    return this.shards.flatMap((s) => s.running?.ingestor.health() ?? []);
  }

  constructor(private readonly o: VenueShardsOptions) {
    const venues = [...o.options.venues].sort((a, b) =>
      a.exchangeId < b.exchangeId ? -1 : a.exchangeId > b.exchangeId ? 1 : 0,
    );
    const bySlot = new Map<number, VenueSettings[]>();
    venues.forEach((v, i) => {
      const slot = i % SHARD_SLOTS;
      bySlot.set(slot, [...(bySlot.get(slot) ?? []), v]);
    });
    this.shards = [...bySlot.entries()].map(([slot, list]) => ({
      slot,
      venues: list,
      running: null,
    }));
    this.group = new ShardGroup({
      brokers: o.brokers,
      group: o.shards.group,
      topic: o.topicPrefix === '' ? 'ingestor-shards' : `${o.topicPrefix}.ingestor-shards`,
      slots: SHARD_SLOTS,
      sessionMs: o.shards.sessionMs,
      replicationFactor: o.replicationFactor,
      clientId: 'route-ingestor',
      onAssign: (slots) => this.assign(slots),
      onRevoke: (why) => this.revoke(why),
    });
  }

  async start(): Promise<void> {
    this.o.logger.info('joining the ingestor group', {
      group: this.o.shards.group,
      sessionMs: this.o.shards.sessionMs,
      venues: this.shards.reduce((n, s) => n + s.venues.length, 0),
    });
    await this.group.start();
  }

  async stop(): Promise<void> {
    await this.group.stop();
    await Promise.all(this.shards.map((s) => this.halt(s)));
  }

  private revoke(why: string): void {
    for (const s of this.shards) if (s.running !== null) close(s.running.gate, why);
    if (this.owned.size > 0) this.o.logger.warn('venues paused: ownership in question', { why });
  }

  private assign(slots: ReadonlySet<number>): void {
    this.owned = new Set(slots);
    const mine: string[] = [];
    for (const s of this.shards) {
      if (!slots.has(s.slot)) {
        if (s.running !== null) void this.halt(s);
        continue;
      }
      mine.push(...s.venues.map((v) => v.exchangeId));
      if (s.running === null) this.launch(s);
      else {
        s.running.gate.open = true;
        s.running.gate.writer.open();
      }
    }
    this.o.logger.info('venues assigned', { group: this.o.shards.group, venues: mine.sort() });
  }

  private launch(s: Shard): void {
    const gate: Gate = { open: true, writer: this.o.writer(() => this.group.holds()) };
    const names = s.venues.map((v) => v.exchangeId).join(', ');
    // The gate is checked at every append (logSink appends per topic), as late as it can be.
    const gatedLog = new Proxy(this.o.log, {
      get: (target, key, receiver) =>
        key === 'append'
          ? (...args: Parameters<EventLog['append']>) =>
              gate.open
                ? gate.writer.append(...args)
                : Promise.reject(
                    new LogError('unavailable', `this ingestor does not own ${names} now (ingestor group)`),
                  )
          : (Reflect.get(target, key, receiver) as unknown),
    });
    const budget = Math.max(1 << 20, Math.floor(this.o.options.bufferBytes / this.shards.length));
    // The run's owner epoch (docs/events.md "Owner epochs"): the time this process was given the
    // slot. A previous owner's run began at least HANDOVER_MS earlier (it publishes nothing before),
    // so hosts whose clocks agree to within that give every later run of the venue a higher epoch,
    // and readers ignore a delta of the previous owner that lands after this run's snapshot.
    this.lastEpoch = Math.max(Date.now(), this.lastEpoch + 1);
    const ingestor = this.o.ingestor({
      ...this.o.options,
      venues: s.venues,
      sink: this.o.tap(withEpoch(logSink(gatedLog), this.lastEpoch)),
      bufferBytes: budget,
    });
    s.running = { ingestor, gate };
    const timer = setTimeout(() => {
      if (s.running?.ingestor === ingestor) ingestor.start();
    }, HANDOVER_MS);
    timer.unref();
  }

  /**
   * Stop a slot's venues. Its gate closes for good: what its writer still holds is dropped, even if
   * the slot comes back here before the stop completes (a new Ingestor starts it afresh then).
   */
  private async halt(s: Shard): Promise<void> {
    const running = s.running;
    s.running = null;
    if (running === null) return;
    close(running.gate, 'its venues stop here');
    await running.ingestor.stop(0);
    await running.gate.writer.close();
  }
}

/** Book records stamped with the run's owner epoch (one for one, so a LogError's indices still hold). */
function withEpoch(sink: RecordSink, epoch: number): RecordSink {
  return {
    write: (records: readonly EventRecord[]) =>
      sink.write(records.map((r) => (r.type === 'book' ? { ...r, epoch } : r))),
  };
}

function close(gate: Gate, why: string): void {
  gate.open = false;
  gate.writer.shut(why);
}
