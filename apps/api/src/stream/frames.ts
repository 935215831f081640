import type { JournalPositions } from '@app/journal';
import type { RouteResult } from '@app/routing';
import type { FrameCause } from './v2/server-messages';

const PREFIX = '{"requestId":""';

/**
 * One tick's RouteResult serialised once; each subscriber gets it with its own fresh requestId
 * (spec 6.1). `tickId` names the tick's journal record, which every frame record points at.
 */
export class SharedFrame {
  private readonly body: string;
  private readonly fast: boolean;

  /** Settles when the tick's journal record is in the log (strict mode waits for it). */
  journalled: Promise<void> = Promise.resolve();
  /** When (performance.now()) the book change this frame answers was folded; null for an opening frame. */
  changedAt: number | null = null;

  /** The log positions its solve read. */
  positions: JournalPositions = { books: [], venues: [] };
  /** v2 only: why the tick was solved (null: an opening frame), and until when its books are fresh. */
  cause: FrameCause | null = null;
  validUntil: number | null = null;

  /** About the bytes of one stamped frame (what the stream budget charges). */
  readonly bytes: number;

  constructor(
    readonly result: RouteResult,
    readonly tickId: string,
  ) {
    this.body = JSON.stringify({ ...result, requestId: '' });
    this.bytes = this.body.length + 36;
    // The solver puts requestId first; splicing the id in saves a stringify per subscriber.
    this.fast = this.body.startsWith(PREFIX);
  }

  /** The frame text with `requestId`: byte for byte JSON.stringify of the result under that id. */
  stamp(requestId: string): string {
    return this.fast
      ? `{"requestId":${JSON.stringify(requestId)}${this.body.slice(PREFIX.length)}`
      : JSON.stringify({ ...this.result, requestId });
  }
}

/** Clarifications 11: `{"error","code","reason"}`, sent before every error close. */
export function errorFrame(error: string, code: 1002 | 1008 | 1013, reason: string): string {
  return JSON.stringify({ error, code, reason });
}

/** A route the stream refuses: no market, or exact-out over a bridge (the REST 400's text). */
export function routeProblem(
  result: RouteResult,
): { code: 'no_market' | 'exact_out_multi_hop_unsupported'; message: string } | null {
  const reason = result.unroutableReason;
  if (reason === 'no_market')
    return { code: reason, message: `no market or bridge path between ${result.from} and ${result.to}` };
  if (reason === 'exact_out_multi_hop_unsupported')
    return {
      code: reason,
      message: `amountOut is unsupported over a bridge (${result.from} to ${result.to}); re-ask with amountIn`,
    };
  return null;
}
