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

/** The schemas of this file, as the OpenAPI document lists them. */
export const AUDIT_SCHEMAS = [PublishedKeySchema, KeysSchema];
