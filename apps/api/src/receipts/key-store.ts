import { generateKeyPairSync } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  formatVerifierKey,
  keyIdHex,
  parseKeysDocument,
  publishKey,
  signingKeyFromPem,
  type PublishedKey,
  type SigningKey,
} from '@app/transparency';

/** What the key store says at start; never the private key. */
export interface KeyStoreLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface ReceiptKeyOptions {
  /** `route-service/<name>`. */
  readonly origin: string;
  /** RECEIPT_KEY_FILE, or null for the key kept under `dataDir`. */
  readonly keyFile: string | null;
  readonly dataDir: string;
  /** Epoch ms (wall time): a rotated-in key signs from now. */
  readonly now: number;
  readonly logger: KeyStoreLogger;
}

export interface ReceiptKeys {
  readonly key: SigningKey;
  /** This origin's keys as GET /keys lists them: every key it ever signed with, oldest first. */
  readonly published: readonly PublishedKey[];
}

/**
 * The origin's signing key and its published history. The history lives in
 * DATA_DIR/receipts/<name>.keys.json: when the key differs from the history's current one (the
 * operator pointed RECEIPT_KEY_FILE at a new key), the old one gets notAfter = now and stays
 * listed, so receipts it signed stay verifiable.
 */
export function loadReceiptKeys(o: ReceiptKeyOptions): ReceiptKeys {
  const dir = join(o.dataDir, 'receipts');
  mkdirSync(dir, { recursive: true });
  const name = o.origin.slice(o.origin.indexOf('/') + 1);
  const pem = o.keyFile === null ? ownKey(join(dir, `${name}.pem`)) : readFileSync(o.keyFile, 'utf8');
  const key = signingKeyFromPem(o.origin, pem);
  const historyFile = join(dir, `${name}.keys.json`);
  const history = readHistory(historyFile, o.origin);
  const id = keyIdHex(key.keyId);
  const current = history.at(-1);
  let published = history;
  if (current?.keyId !== id || current.notAfter !== null) {
    if (history.some((k) => k.keyId === id))
      throw new Error(`${o.origin}: key ${id} was retired; going back to it would list it twice`);
    // An origin's first key has no predecessor to bound it: it signs from 0, so a pinned or
    // replayed clock (--now, --replay) never dates a quote before its own key.
    const start = current === undefined ? 0 : Math.max(o.now, current.notBefore + 1);
    const open = current !== undefined && current.notAfter === null;
    published = [
      ...(open ? [...history.slice(0, -1), { ...current, notAfter: start }] : history),
      publishKey(key, start, null),
    ];
    writeAtomically(historyFile, `${JSON.stringify({ keys: published })}\n`);
    if (current !== undefined)
      o.logger.info('receipt key rotated: the old key stays listed', {
        origin: o.origin,
        oldKeyId: current.keyId,
      });
  }
  const fields = {
    origin: o.origin,
    keyId: id,
    publicKey: Buffer.from(key.publicKey).toString('base64'),
    verifierKey: formatVerifierKey(key),
    source: o.keyFile === null ? 'DATA_DIR' : 'RECEIPT_KEY_FILE',
  };
  // One line either way: the start's few lines stay few (an operator reads them all).
  if (o.keyFile === null) o.logger.warn(BESIDE_THE_LOG, { ...fields, file: join(dir, `${name}.pem`) });
  else o.logger.info('receipt key', fields);
  return { key, published };
}

/** The start's line for a key made beside the log: what it signs with, and what that proves. */
export const BESIDE_THE_LOG =
  'receipt key kept beside the log: it proves nothing against whoever holds this directory; set RECEIPT_KEY_FILE to a key kept elsewhere';

/** The key beside the log: made once (mode 0600), then read. */
function ownKey(file: string): string {
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    // Written whole under a name of its own, then linked into place: two processes starting on
    // one DATA_DIR never overwrite each other's key, and the one that loses the race reads the
    // winner's whole key, never half of it.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, pem, { mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      unlinkSync(tmp);
    }
  }
  chmodSync(file, 0o600);
  return readFileSync(file, 'utf8');
}

function readHistory(file: string, origin: string): PublishedKey[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const parsed = parseKeysDocument(text);
  if (!parsed.ok) throw new Error(`${file}: not a key list (${parsed.error.detail})`);
  const keys = (JSON.parse(text) as { keys: PublishedKey[] }).keys;
  if (keys.some((k) => k.origin !== origin)) throw new Error(`${file}: lists keys of another origin`);
  return keys;
}

function writeAtomically(file: string, text: string): void {
  // Named by process: two starting at once each rename a whole file of their own.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o644 });
  renameSync(tmp, file);
}

/**
 * A key that lives only in memory: for servers built without a data directory (tests, benches,
 * embedders). Its receipts verify against its /keys while the process runs, and never after.
 */
export function ephemeralReceiptKeys(origin: string): ReceiptKeys {
  const { privateKey } = generateKeyPairSync('ed25519');
  const key = signingKeyFromPem(origin, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
  return { key, published: [publishKey(key, 0, null)] };
}
