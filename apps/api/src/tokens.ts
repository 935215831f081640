/** DI tokens for plain-object configuration. */
export const SERVER_CONFIG = Symbol('SERVER_CONFIG');
/** The origin's signing key and its published key list (receipts/key-store.ts). */
export const RECEIPT_KEYS = Symbol('RECEIPT_KEYS');
/** The origin's transparency log (an OriginLog of @app/audit), or null with RECEIPTS off. */
export const TRANSPARENCY_LOG = Symbol('TRANSPARENCY_LOG');
