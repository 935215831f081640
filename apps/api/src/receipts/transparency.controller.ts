import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OriginLog } from '@app/audit';
import { queryOf, splitQuery } from '@app/request';
import {
  consistencyProofJson,
  inclusionProofJson,
  parseDecimal,
  type ConsistencyProofJson,
  type InclusionProofJson,
} from '@app/transparency';
import { TRANSPARENCY_LOG } from '../tokens';

interface ErrorBody {
  readonly error: string;
}

const REQUEST_ID = /^[A-Za-z0-9_.-]{1,200}$/;
const OFF = 'this service keeps no transparency log (RECEIPTS is off)';

/**
 * The origin's transparency log (docs/audit.md "Checkpoints", "Proofs"): its latest signed
 * checkpoint, consistency proofs between its sizes, and the inclusion proof of a quote's record.
 * Every answer is computed from memory in O(log n) hashes; bad input is a 400 naming it.
 */
@Controller()
export class TransparencyController {
  constructor(@Inject(TRANSPARENCY_LOG) private readonly tlog: OriginLog | null) {}

  @Get('checkpoint')
  checkpoint(@Res({ passthrough: true }) reply: FastifyReply): string | ErrorBody {
    const latest = this.tlog?.latest ?? null;
    if (latest === null) return fail(reply, 404, this.tlog === null ? OFF : 'no checkpoint signed yet');
    void reply.header('content-type', 'text/plain; charset=utf-8');
    return latest.note;
  }

  @Get('checkpoint/consistency')
  consistency(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): ConsistencyProofJson | ErrorBody {
    const sizes = parseSizes(queryOf(req.url));
    if (typeof sizes === 'string') return fail(reply, 400, sizes);
    const log = this.tlog;
    const latest = log?.latest ?? null;
    if (log === null || latest === null)
      return fail(reply, 404, log === null ? OFF : 'no checkpoint signed yet');
    const { from, to } = sizes;
    // Valid, but beyond what is signed yet: like a book not cached, a 404.
    if (to > latest.checkpoint.size)
      return fail(reply, 404, `to is above the latest checkpoint's size ${latest.checkpoint.size}`);
    const path = log.hashes.consistency(from, to);
    // Sizes below the prefix stay provable only where a checkpoint was signed at them.
    if (!path.ok)
      return fail(
        reply,
        404,
        `tree size ${from} is past retention: the log keeps proofs from sizes it signed a checkpoint at, and from ${log.hashes.firstLeaf} on`,
      );
    return consistencyProofJson({ origin: log.origin, from, to, consistencyPath: path.value });
  }

  @Get('receipts/:requestId/proof')
  proof(
    @Param('requestId') requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): InclusionProofJson | ErrorBody {
    if (!REQUEST_ID.test(requestId)) return fail(reply, 400, 'requestId must match ^[A-Za-z0-9_.-]{1,200}$');
    const log = this.tlog;
    if (log === null) return fail(reply, 404, OFF);
    const found = log.lookup(requestId);
    if (found.state === 'unknown') {
      const first = log.hashes.firstLeaf;
      // Leaves before the prefix this process started from are gone: their keys are not known either.
      const retired = first === 0 ? '' : `; a record before leaf ${first} is past retention`;
      return fail(
        reply,
        404,
        `no record of ${requestId} among the newest of ${log.origin}'s log (yet: one enters within the merge delay; an older one is proven from the log by replay verify)${retired}`,
      );
    }
    if (found.state === 'pending')
      return fail(reply, 404, `${requestId} is leaf ${found.leafIndex}, not under a signed checkpoint yet`);
    const { checkpoint, note } = found.checkpoint;
    const path = log.hashes.inclusion(found.leafIndex, checkpoint.size);
    if (!path.ok) return fail(reply, 404, pastRetention(requestId, found.leafIndex, log.hashes.firstLeaf));
    return inclusionProofJson({
      origin: log.origin,
      requestId,
      leafIndex: found.leafIndex,
      treeSize: checkpoint.size,
      inclusionPath: path.value,
      checkpoint: note,
    });
  }
}

function pastRetention(requestId: string, leafIndex: number, firstLeaf: number): string {
  return `${requestId} is leaf ${leafIndex}, past retention: the log keeps leaves from ${firstLeaf} on (its checkpoints and later proofs still verify)`;
}

function fail(reply: FastifyReply, status: 400 | 404, error: string): ErrorBody {
  void reply.status(status);
  return { error };
}

const CANONICAL_SIZE = /^[1-9][0-9]*$/;

/** `from` and `to`: both present, canonical decimals, 1 <= from <= to (nothing else in the query). */
function parseSizes(raw: string): { from: number; to: number } | string {
  const split = splitQuery(raw);
  if (!split.ok) return split.error;
  for (const name of split.pairs.keys())
    if (name !== 'from' && name !== 'to') return `unknown parameter ${JSON.stringify(name.slice(0, 40))}`;
  const [from, to] = (['from', 'to'] as const).map((n) => {
    const text = split.pairs.get(n);
    if (text === undefined || text.length > 16) return null;
    // A canonical size past 2^53 - 1 is valid (the documented pattern allows 16 digits) and beyond
    // any tree this log can hold: it compares as such, and is answered as any size not signed yet.
    return parseDecimal(text) ?? (CANONICAL_SIZE.test(text) ? Infinity : null);
  });
  if (from == null || to == null)
    return 'from and to are tree sizes: decimal integers without sign or leading zeros';
  if (from === 0)
    return 'from must be at least 1: the empty tree is extended by every tree, nothing to prove';
  if (from > to) return 'from must not be above to';
  return { from, to };
}
