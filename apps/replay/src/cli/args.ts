import { InvalidArgumentError } from 'commander';
import { numberArg } from '@app/config';

/** Latest instant a JavaScript Date can hold, the bound of every epoch-ms flag. */
export const MAX_EPOCH_MS = 8_640_000_000_000_000;

/** A commander value parser for an integer within [min, max] (libs/config's number parser). */
export function integer(min: number, max: number): (raw: string) => number {
  return numberArg({ integer: true, min, max });
}

/** A commander value parser for a plain decimal number within [min, max]. */
export function decimal(min: number, max: number): (raw: string) => number {
  return numberArg({ integer: false, min, max });
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A commander value parser for an instant: epoch milliseconds, or an ISO 8601 date or date-time
 * with an explicit zone (`2026-08-10T12:00:00Z`; a bare date is UTC midnight). A time without a
 * zone is refused: it would mean something else on another machine.
 */
export function instant(raw: string): number {
  if (/^\d+$/.test(raw)) return integer(0, MAX_EPOCH_MS)(raw);
  const ms = ISO.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms) || ms < 0)
    throw new InvalidArgumentError(
      'must be epoch milliseconds or an ISO 8601 time with a zone (2026-08-10T12:00:00Z)',
    );
  return ms;
}
