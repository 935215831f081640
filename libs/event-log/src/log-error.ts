import { errorMessage } from '@app/retry';
/** Why an event-log operation failed. */
export type LogErrorCode =
  | 'locked'
  | 'closed'
  | 'bad_argument'
  | 'corrupt'
  | 'unavailable'
  /** The disk is full (ENOSPC, EDQUOT): retry once space is freed. */
  | 'no_space'
  /** The disk failed a read, write or sync (EIO, EROFS, ...). */
  | 'io_error'
  /** An entry is over MAX_RECORD_BYTES (or its key over 65535 bytes); nothing of the batch was written. */
  | 'too_large'
  /** A read-only open found no such data directory (nothing is ever created). */
  | 'not_found';

/** What an append that failed still did, so a caller retries exactly the rest. */
export interface LogErrorDetails {
  /** Indices into the entries given to `append` that are in the log although the call failed. */
  readonly appended?: readonly number[];
  /** Indices refused as too large (code 'too_large'). */
  readonly rejected?: readonly number[];
}

export class LogError extends Error {
  /** Entries of the failed append that are in the log anyway (retrying them would repeat them). */
  readonly appended: readonly number[];
  /** Entries refused for their size ('too_large'): retrying them can never succeed. */
  readonly rejected: readonly number[];

  constructor(
    readonly code: LogErrorCode,
    message: string,
    details: LogErrorDetails = {},
  ) {
    super(message);
    this.name = 'LogError';
    this.appended = details.appended ?? [];
    this.rejected = details.rejected ?? [];
  }
}

/**
 * Whether the same append may succeed later without anyone changing the data on disk: an outage,
 * a full disk, a failing disk or a lock held by another writer. 'corrupt', 'too_large',
 * 'bad_argument' and 'closed' need a person or a different call.
 */
export function retryable(e: unknown): boolean {
  if (!(e instanceof LogError)) return true; // client errors of a broker outage (kafkajs)
  switch (e.code) {
    case 'unavailable':
    case 'no_space':
    case 'io_error':
    case 'locked':
      return true;
    case 'corrupt':
    case 'too_large':
    case 'bad_argument':
    case 'closed':
    case 'not_found':
      return false;
  }
}

/** A file-system error as a LogError naming what was being done ('write of <file>'). */
export function fileError(e: unknown, what: string, details?: LogErrorDetails): LogError {
  if (e instanceof LogError) return new LogError(e.code, e.message, details);
  const code = (e as NodeJS.ErrnoException | null)?.code;
  const reason = errorMessage(e);
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new LogError('no_space', `${what} failed, the disk is full: ${reason}`, details);
  return new LogError('io_error', `${what} failed: ${reason}`, details);
}
