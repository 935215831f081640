import { JournalError } from './journal-error';
import {
  CLOSE_REASONS,
  RESUME_REFUSALS,
  type StreamCloseRecord,
  type StreamOpenRecord,
  type StreamRequest,
  type StreamResumePoint,
  type StreamResumeVerdict,
} from './quote-record';
import { get, int, obj, oneOf, str, type Obj, type RequestValidator } from './read-fields';

/** The text of a stream open record (fields in the order of its type). */
export function encodeStreamOpen(r: Omit<StreamOpenRecord, 'v' | 'type'>): string {
  const { streamId, id, at, path, request, resume, verdict } = r;
  return JSON.stringify({ v: 2, type: 'stream_open', streamId, id, at, path, request, resume, verdict });
}

/** The text of a stream close record. */
export function encodeStreamClose(r: Omit<StreamCloseRecord, 'v' | 'type'>): string {
  const { streamId, id, at, lastSeq, reason, request } = r;
  return JSON.stringify({ v: 2, type: 'stream_close', streamId, id, at, lastSeq, reason, request });
}

/** Whether a decoded journal value is a stream open or close (its `type` says so). */
export function isStreamEvent(o: Obj): boolean {
  return o.type === 'stream_open' || o.type === 'stream_close';
}

/** Validate a stream open or close record; throws JournalError naming the field. */
export function validateStreamEvent(
  o: Obj,
  validateRequest: RequestValidator,
): StreamOpenRecord | StreamCloseRecord {
  if (o.v !== 2) throw new JournalError('bad_version', 'v', `unsupported version ${JSON.stringify(o.v)}`);
  const streamId = str(o, '', 'streamId');
  const head = { v: 2 as const, streamId, id: str(o, '', 'id'), at: int(o, '', 'at') };
  const request = streamRequest(get(o, '', 'request'), streamId, validateRequest);
  if (o.type === 'stream_close')
    return {
      ...head,
      type: 'stream_close',
      lastSeq: int(o, '', 'lastSeq'),
      reason: oneOf(o, '', 'reason', CLOSE_REASONS),
      request,
    };
  const resume = get(o, '', 'resume') === null ? null : resumePoint(obj(o.resume, 'resume'));
  const verdict = get(o, '', 'verdict') === null ? null : resumeVerdict(obj(o.verdict, 'verdict'));
  if ((resume === null) !== (verdict === null))
    throw new JournalError('bad_field', 'verdict', 'must be given exactly when a resume was claimed');
  return {
    ...head,
    type: 'stream_open',
    path: oneOf(o, '', 'path', ['stream', 'stream/route'] as const),
    request,
    resume,
    verdict,
  };
}

function resumePoint(o: Obj): StreamResumePoint {
  return { streamId: str(o, 'resume', 'streamId'), seq: int(o, 'resume', 'seq') };
}

function resumeVerdict(o: Obj): StreamResumeVerdict {
  if (o.resumed === true) return { resumed: true, missedFrames: int(o, 'verdict', 'missedFrames') };
  if (o.resumed !== false) throw new JournalError('bad_field', 'verdict.resumed', 'must be true or false');
  return { resumed: false, reason: oneOf(o, 'verdict', 'reason', RESUME_REFUSALS) };
}

/**
 * The stored request, checked by the request model's rules (with the streamId standing in for a
 * requestId) but returned as stored: its key order is what a resume compares.
 */
function streamRequest(v: unknown, streamId: string, validateRequest: RequestValidator): StreamRequest {
  const o = obj(v, 'request');
  if ('requestId' in o) throw new JournalError('bad_field', 'request.requestId', 'is not a stream field');
  const checked = validateRequest({ ...o, requestId: streamId });
  if (!checked.ok) throw new JournalError('bad_field', checked.field, checked.error);
  return o as unknown as StreamRequest;
}
