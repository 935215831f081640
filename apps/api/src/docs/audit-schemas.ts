import { Type, type Static } from '@sinclair/typebox';
import { nullable } from './result-schema';

/* The documents of the audit endpoints (docs/audit.md defines every field and how to check it). */

const closed = (id: string, description: string) => ({ $id: id, description, additionalProperties: false });

export const PublishedKeySchema = Type.Object(
  {
    origin: Type.String({ description: 'The origin this key signs for, `route-service/<name>`.' }),
    keyId: Type.String({
      pattern: '^[0-9a-f]{8}$',
      description: 'Signed-note key id of (origin, publicKey), 8 hex digits.',
    }),
    publicKey: Type.String({ description: 'Standard base64 of the raw 32-byte Ed25519 public key.' }),
    notBefore: Type.Integer({ minimum: 0, description: 'Epoch ms from which the key signs.' }),
    notAfter: nullable(
      Type.Integer({ minimum: 0, description: 'Epoch ms from which it no longer signs (rotated out).' }),
      'Null while the key is current.',
    ),
  },
  closed('PublishedKey', 'One signing key of an origin.'),
);

export const KeysSchema = Type.Object(
  {
    keys: Type.Array(PublishedKeySchema, {
      description: "This process's origin's keys, oldest first: rotated-out keys stay listed.",
    }),
  },
  closed('Keys', 'The public keys that verify receipts and checkpoints (an extension of the spec).'),
);

export type Keys = Static<typeof KeysSchema>;

const ORIGIN = Type.String({ description: 'The origin whose log this is, `route-service/<name>`.' });
const TREE_SIZE = (description: string) => Type.Integer({ minimum: 0, maximum: 2 ** 53 - 1, description });
const HASHES = (description: string) =>
  Type.Array(Type.String({ description: 'Standard base64 of a 32-byte SHA-256 hash.' }), {
    maxItems: 128,
    description,
  });

export const InclusionProofSchema = Type.Object(
  {
    origin: ORIGIN,
    requestId: Type.String({
      pattern: '^[A-Za-z0-9_.-]{1,200}$',
      description: 'The quote whose record is proven.',
    }),
    leafIndex: TREE_SIZE("The record's index among the origin's leaves."),
    treeSize: TREE_SIZE("The size of the tree the path proves it in: the signed checkpoint's."),
    inclusionPath: HASHES('RFC 9162 inclusion path, deepest sibling first.'),
    checkpoint: Type.String({ description: 'The signed checkpoint note of treeSize, verbatim.' }),
  },
  closed('InclusionProof', 'A quote\'s journal record under a signed checkpoint (docs/audit.md "Proofs").'),
);

export const ConsistencyProofSchema = Type.Object(
  {
    origin: ORIGIN,
    from: TREE_SIZE('The older tree size (at least 1).'),
    to: TREE_SIZE("The newer tree size (at most the latest checkpoint's)."),
    consistencyPath: HASHES('RFC 9162 consistency path from the tree of `from` leaves to that of `to`.'),
  },
  closed('ConsistencyProof', 'The tree of `to` leaves extends the tree of `from` (docs/audit.md "Proofs").'),
);

/** The schemas of this file, as the OpenAPI document lists them. */
export const AUDIT_SCHEMAS = [PublishedKeySchema, KeysSchema, InclusionProofSchema, ConsistencyProofSchema];
