import { describe, expect, it } from 'vitest';
import { openCheckpoint, parseCheckpointText, signCheckpoint } from './checkpoint';
import { fromBase64 } from './encoding';
import { openNote, signNote } from './note';
import {
  formatVerifierKey,
  noteKeyId,
  parseVerifierKey,
  pemFromSeed,
  signingKeyFromPem,
  signingKeyFromSeed,
  verifierKey,
} from './note-key';

// RFC 8032 section 7.1, TEST 1: the seed and its public key.
const SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
const PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const NAME = 'route-service/rfc8032-test1';
// Printed by libs/transparency/test/note-kat.sh (openssl, sha256sum, xxd; no code of ours). The Go
// interop test also checks notes against golang.org/x/mod/sumdb/note and its own known answers.
const VKEY = `${NAME}+dc97567a+AddamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea`;
const TEXT = `${NAME}\n8\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n`;
const SIGNED = `${TEXT}\n\u2014 ${NAME} 3JdWeo6ubwVyiIjvIXVN++PoK7P6NEFkHNUGpqV9qnuZ9nrySm1vBG8aKXWdqOioyOP67OvYEGCOotZJ/0yepf/nYwg=\n`;

const key = signingKeyFromSeed(NAME, SEED);
const trusted = parseVerifierKey(VKEY)!;

describe('note keys', () => {
  it('derive the public key, key id and verifier key text the known answer has', () => {
    expect(key.publicKey.toString('hex')).toBe(PUBLIC);
    expect(key.keyId).toBe(0xdc97567a);
    expect(formatVerifierKey(key)).toBe(VKEY);
    expect(trusted.keyId).toBe(0xdc97567a);
    expect(signingKeyFromPem(NAME, pemFromSeed(SEED)).publicKey.toString('hex')).toBe(PUBLIC);
  });

  it('the key id covers the name and the signature type', () => {
    expect(noteKeyId('route-service/other', key.publicKey)).not.toBe(key.keyId);
  });

  it('refuse every mangled verifier key', () => {
    const bad = [
      VKEY.replace('dc97567a', 'dc97567b'), // id does not match
      VKEY.replace('dc97567a', 'DC97567A'), // not lowercase hex
      VKEY.replace('+AddamAG', '+AsdamAG'), // another key than the id says
      VKEY.replace('+Addam', '+Bddam'), // another signature type
      `${VKEY}=`,
      `${VKEY}+x`,
      VKEY.replace(NAME, 'route service'),
      VKEY.slice(0, -1),
      '',
    ];
    for (const text of bad) expect(parseVerifierKey(text), text).toBeNull();
    for (let i = 0; i < VKEY.length; i++) expect(parseVerifierKey(VKEY.slice(0, i))).toBeNull();
  });
});

describe('signed notes', () => {
  it('sign to the known answer byte for byte and open it', () => {
    expect(signNote(TEXT, [key])).toBe(SIGNED);
    const opened = openNote(SIGNED, [trusted]);
    expect(opened.ok && opened.text).toBe(TEXT);
    expect(openNote(Buffer.from(SIGNED), [trusted]).ok).toBe(true);
  });

  it('list unknown keys unverified, refuse a note no trusted key signed', () => {
    const other = signingKeyFromSeed('example.com/other', Buffer.alloc(32, 7));
    const both = signNote(TEXT, [other, key]);
    const opened = openNote(both, [trusted]);
    expect(opened.ok && opened.unverified.map((s) => s.name)).toEqual(['example.com/other']);
    expect(openNote(both, [])).toMatchObject({ ok: false, failure: 'no_known_signature' });
    // Same name, other key: an unknown key, not a failed signature.
    const impostor = signNote(TEXT, [signingKeyFromSeed(NAME, Buffer.alloc(32, 9))]);
    expect(openNote(impostor, [trusted])).toMatchObject({ ok: false, failure: 'no_known_signature' });
  });

  it('refuse a changed text, a changed signature, and a duplicated trusted key', () => {
    expect(openNote(SIGNED.replace('\n8\n', '\n9\n'), [trusted])).toMatchObject({
      ok: false,
      failure: 'bad_signature',
    });
    const sig = SIGNED.slice(SIGNED.lastIndexOf(' ') + 1, -1);
    const raw = fromBase64(sig)!;
    raw[10] = raw[10]! ^ 1;
    const flipped = SIGNED.replace(sig, raw.toString('base64'));
    expect(openNote(flipped, [trusted])).toMatchObject({ ok: false, failure: 'bad_signature' });
    expect(openNote(SIGNED, [trusted, verifierKey(NAME, key.publicKey)!])).toMatchObject({
      ok: false,
      failure: 'ambiguous_key',
    });
  });

  it('refuse what is not a signed note', () => {
    const line = SIGNED.slice(TEXT.length + 1);
    const malformed = [
      TEXT,
      `${TEXT}\n`,
      SIGNED.slice(0, -1),
      `\x01${SIGNED}`,
      `${TEXT}\r\n${line}`,
      `${TEXT}\n${line}Unexpected line.\n`,
      `${TEXT}\n${line.replace(NAME, 'bad name')}`,
      `${TEXT}\n${line.replace('\u2014', '-')}`,
      `${TEXT}\n${line.replace('=\n', '\n')}`,
      `${TEXT}\n\u2014 ${NAME} AAAA\n`,
      `\ud800${SIGNED}`,
    ];
    for (const m of malformed)
      expect(openNote(m, [trusted]), JSON.stringify(m)).toMatchObject({ ok: false, failure: 'malformed' });
    expect(openNote(Buffer.concat([Buffer.from([0xff]), Buffer.from(SIGNED)]), [trusted])).toMatchObject({
      failure: 'malformed',
    });
    expect(openNote(`${TEXT}\n${line.repeat(101)}`, [trusted])).toMatchObject({ failure: 'too_large' });
    expect(openNote(`${TEXT}\n${line.repeat(100)}`, [trusted]).ok).toBe(true);
    expect(openNote('x'.repeat(300_000), [trusted])).toMatchObject({ failure: 'too_large' });
  });
});

describe('checkpoints', () => {
  it('sign and open with origin, size and root; refuse another origin or layout', () => {
    const root = Buffer.from('5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328', 'hex');
    const note = signCheckpoint({ origin: NAME, size: 8, root, extensions: [] }, key);
    expect(note).toBe(SIGNED);
    const opened = openCheckpoint(note, NAME, [trusted]);
    expect(opened.ok && opened.checkpoint.size).toBe(8);
    expect(opened.ok && opened.checkpoint.root.equals(root)).toBe(true);
    expect(openCheckpoint(note, 'route-service/b', [trusted])).toMatchObject({
      ok: false,
      failure: 'no_known_signature',
    });
    const withExt = signCheckpoint({ origin: NAME, size: 8, root, extensions: ['x-ext'] }, key);
    expect(openCheckpoint(withExt, NAME, [trusted])).toMatchObject({
      ok: true,
      checkpoint: { extensions: ['x-ext'] },
    });
    const notCheckpoint = signNote(`${NAME}\n08\n${root.toString('base64')}\n`, [key]);
    expect(openCheckpoint(notCheckpoint, NAME, [trusted])).toMatchObject({ failure: 'malformed_checkpoint' });
    expect(() => signCheckpoint({ origin: 'route-service/b', size: 8, root, extensions: [] }, key)).toThrow(
      RangeError,
    );
  });

  it('parse only the exact layout', () => {
    const r = 'XcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=';
    expect(parseCheckpointText(`o\n0\n${r}\n`)).toMatchObject({ size: 0 });
    expect(parseCheckpointText(`o\n9007199254740991\n${r}\n`)).toMatchObject({ size: 2 ** 53 - 1 });
    for (const t of [
      `o\n9007199254740992\n${r}\n`,
      `o\n-1\n${r}\n`,
      `o\n1\n${r}`,
      `o\n1\n${r}\n\n`,
      `\n1\n${r}\n`,
      `o\n1\n${r.slice(1)}\n`,
      `o\n1\n`,
    ])
      expect(parseCheckpointText(t), JSON.stringify(t)).toBeNull();
  });
});
