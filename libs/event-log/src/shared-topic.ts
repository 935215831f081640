/** One record for a shared topic: a null value deletes the key (a tombstone, for compaction). */
export interface SharedRecord {
  readonly key: string;
  readonly value: Buffer | null;
}

/** One record read back, with its offset. */
export interface SharedEntry extends SharedRecord {
  readonly offset: number;
}

/**
 * A compacted, single-partition topic a log keeps beside its own topics for data derived from
 * them that every reader of the log shares (the journal's requestId index, libs/audit). Binary
 * values; a record is addressed by its offset, which compaction keeps; compaction keeps the
 * latest record of each key and drops a key a tombstone deleted.
 */
export interface SharedTopic {
  /** Its name on the broker (for messages). */
  readonly name: string;
  /**
   * Append in order; resolves once every in-sync replica has them, with each record's offset.
   * One record must stay under MAX_RECORD_BYTES.
   */
  append(records: readonly SharedRecord[]): Promise<number[]>;
  /** Records from `from` (offsets compaction removed are skipped) up to the end as of the call, at most `max`. */
  read(from: number, max: number): Promise<SharedEntry[]>;
  /** The offset the next record will get. */
  end(): Promise<number>;
}
