import type { JsonObject } from './json-schema';
import { errorResponse, jsonResponse } from './responses';
import { ConsistencyProofSchema, InclusionProofSchema } from './audit-schemas';

type Operation = JsonObject & { responses: Record<string, JsonObject> };

const OFF_OR_NONE = 'RECEIPTS is off (no log), or no checkpoint is signed yet.';
const EXAMPLE_NOTE =
  'route-service/main\n8\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\ntime 1767225600000\nmerge-delay-ms 10000\n\n— route-service/main 3JdWeo6ubwVyiIjvIXVN++PoK7P6NEFkHNUGpqV9qnuZ9nrySm1vBG8aKXWdqOioyOP67OvYEGCOotZJ/0yepf/nYwg=\n';

const size = (name: string, description: string): JsonObject => ({
  name,
  in: 'query',
  required: true,
  description,
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
  example: name === 'from' ? '3' : '8',
});

/** The transparency log's operations (docs/audit.md), all extensions of the spec. */
export function auditOperations(requestIdHeader: JsonObject): Record<string, Record<string, Operation>> {
  const op = (
    id: string,
    summary: string,
    parameters: JsonObject[],
    responses: Record<string, JsonObject>,
  ) => ({
    get: {
      tags: ['meta'],
      operationId: id,
      summary,
      parameters: [...parameters, requestIdHeader],
      responses,
      'x-extension': true,
    },
  });
  const note = jsonResponse('The latest signed checkpoint: a C2SP signed note.', { type: 'string' });
  return {
    '/checkpoint': op('getCheckpoint', "The origin's latest signed checkpoint (extension)", [], {
      '200': { ...note, content: { 'text/plain': { schema: { type: 'string' }, example: EXAMPLE_NOTE } } },
      '404': errorResponse(OFF_OR_NONE),
    }),
    '/checkpoint/consistency': op(
      'getCheckpointConsistency',
      'RFC 9162 consistency proof between two tree sizes (extension)',
      [
        size('from', 'The older tree size, at least 1.'),
        size('to', "The newer tree size, from `from` to the latest checkpoint's."),
      ],
      {
        '200': jsonResponse('The consistency path.', ConsistencyProofSchema),
        '400': errorResponse(
          'from or to is missing, not a canonical decimal, 0 or out of order; or another parameter is given.',
        ),
        '404': errorResponse(`${OFF_OR_NONE} Or to is above the latest checkpoint's size.`),
      },
    ),
    '/receipts/{requestId}/proof': op(
      'getReceiptProof',
      "Inclusion proof of a quote's journal record (extension)",
      [
        {
          name: 'requestId',
          in: 'path',
          required: true,
          description: "The quote's requestId, as its receipt names it.",
          schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,200}$' },
          example: 'kat-1',
        },
      ],
      {
        '200': jsonResponse(
          'The leaf, the signed checkpoint it is proven under, and the path.',
          InclusionProofSchema,
        ),
        '400': errorResponse('The requestId does not match ^[A-Za-z0-9_.-]{1,200}$.'),
        '404': errorResponse(
          "RECEIPTS is off; the record is not in this origin's log (yet: one enters within the merge delay); or it is not under a signed checkpoint yet.",
        ),
      },
    ),
  };
}
