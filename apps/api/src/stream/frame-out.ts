import { hash, randomUUID } from 'node:crypto';
import type { Logger } from '@nestjs/common';
import { errorMessage as messageOf } from '@app/retry';
import type { QuoteJournal } from '@app/audit';
import type { FrameStream, TickCause } from '@app/journal';
import type { RouteRequest } from '@app/routing';
import type { ReceiptSigner } from '../receipts/quote-receipt';
import type { LiveSolve } from '../route/route.service';
import { errorFrame, SharedFrame } from './frames';
import type { Subscriber } from './subscriber';
import { errorMessage, quoteMessage } from './v2/server-messages';

/** A frame's receipt and its result's hash, when receipts are on. */
interface Signed {
  readonly receipt: string;
  readonly resultSha256: string;
}

const now = (): number => performance.now();

/**
 * What leaves for a socket: each tick journalled once, each frame stamped with its own requestId,
 * journalled and written (v1: the result text; v2: a quote message around it). A frame the
 * journal refuses is never dropped silently: a v2 subscription gets `journal_unavailable` (its
 * next quote counts the withheld frame in ticksSkipped), a v1 stream closes 1013.
 */
export class FrameOut {
  /** Frames the journal refused, since start (closed streams included). */
  withheldTotal = 0;

  constructor(
    private readonly journal: QuoteJournal,
    private readonly logger: Logger,
    /** Told the delay (ms) from a folded book change to each frame written for it. */
    private readonly onPush: (delayMs: number) => void,
    /** RECEIPTS=true: each v2 quote carries its result's receipt. */
    private readonly sign: ReceiptSigner | null = null,
  ) {}

  /**
   * Journal a solve as a stream tick (a v2 group's with its cause); the frames sent from it are
   * journalled as they go out.
   */
  tick(solved: LiveSolve & { request: RouteRequest }, cause?: TickCause): SharedFrame {
    const tickId = solved.request.requestId;
    const frame = new SharedFrame(solved.result, tickId);
    frame.journalled = this.journal.record({
      kind: 'stream_tick',
      request: solved.request,
      calculatedAt: solved.result.calculatedAt,
      positions: solved.positions,
      status: null,
      // The tick's own text is the result under the tick id (what `quote <tickId>` reproduces).
      body: frame.stamp(tickId),
      ...(cause === undefined ? {} : { cause }),
    });
    frame.journalled.catch((e: unknown) => this.failed(e));
    return frame;
  }

  /** Stamp a frame with the subscriber's own requestId, journal it, send exactly that text. */
  deliver(sub: Subscriber, frame: SharedFrame): void {
    if (!this.journal.accepts('stream')) return this.withhold(sub, 'the quote journal refuses appends');
    const requestId = randomUUID();
    const body = frame.stamp(requestId);
    // A v2 frame's seq and tick are taken now, so its record says what its quote message says.
    const stream = sub.v2 === null ? null : sub.v2.next(sub.ticks);
    const entry = {
      requestId,
      tickId: frame.tickId,
      calculatedAt: frame.result.calculatedAt,
      body,
      ...(stream === null ? {} : { stream }),
    };
    let journalled: Promise<void>;
    let signed: Signed | null = null;
    if (this.sign === null || stream === null) journalled = this.journal.recordFrame(entry);
    else {
      // The receipt names the frame record's leaf hash: its text is built now.
      const sha256 = hash('sha256', body, 'buffer');
      const built = this.journal.recordFrameBuilt({ ...entry, sha256 });
      journalled = built.queued;
      const bytes = Buffer.byteLength(body, 'utf8');
      signed = {
        receipt: this.sign(requestId, sha256, bytes, frame.result.calculatedAt, built.leafHash),
        resultSha256: sha256.toString('hex'),
      };
    }
    if (this.journal.mode !== 'strict') {
      journalled.catch((e: unknown) => this.failed(e));
      return this.write(sub, frame, body, stream, signed);
    }
    // Strict: the frame leaves only once its record and its tick's record are in the log.
    Promise.all([frame.journalled, journalled]).then(
      () => {
        if (sub.ws.readyState === sub.ws.OPEN) this.write(sub, frame, body, stream, signed);
      },
      () => {
        if (sub.v2 === null) return sub.ws.close(1011, 'quote journal unavailable');
        if (stream !== null) sub.v2.unsent(stream);
        this.withhold(sub, 'the quote journal did not take the frame');
      },
    );
  }

  private write(
    sub: Subscriber,
    frame: SharedFrame,
    body: string,
    stream: FrameStream | null,
    signed: Signed | null,
  ): void {
    const v2 = sub.v2;
    if (v2 === null || stream === null) sub.ws.send(body);
    else {
      v2.validUntil = frame.validUntil;
      const cause = frame.cause ?? { kind: 'open' as const, markets: [], positions: frame.positions };
      sub.ws.send(
        quoteMessage({
          ...stream,
          cause: stream.seq === 1 ? { ...cause, kind: v2.openCause } : cause,
          validUntil: frame.validUntil,
          result: body,
          ...signed,
        }),
      );
    }
    if (frame.changedAt !== null) this.onPush(now() - frame.changedAt);
  }

  /** The frame is not sent: counted, and the client told. */
  private withhold(sub: Subscriber, why: string): void {
    sub.withheld();
    this.withheldTotal++;
    if (sub.ws.readyState !== sub.ws.OPEN) return;
    const v2 = sub.v2;
    if (v2 === null) {
      sub.ws.send(
        errorFrame(`${why}; the stream is closed, reconnect later`, 1013, 'quote journal unavailable'),
      );
      return sub.ws.close(1013, 'quote journal unavailable');
    }
    sub.ws.send(
      errorMessage({
        id: v2.id,
        op: 'subscribe',
        code: 'journal_unavailable',
        status: 503,
        message: `${why}: a quote was withheld (the next one counts it in ticksSkipped)`,
      }),
    );
  }

  private failed(e: unknown): void {
    this.logger.error(`quote journal: ${messageOf(e)}`);
  }
}
