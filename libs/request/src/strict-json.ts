import { isPrototypeKey } from './limits';

export interface StrictJsonLimits {
  /** Deepest nesting of arrays and objects (the top-level value is depth 1). */
  readonly depth: number;
  /** Object keys in the whole document. */
  readonly keys: number;
}

export type StrictJsonParse =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/**
 * JSON.parse for untrusted request bodies: the same grammar (RFC 8259), one pass, plus what
 * JSON.parse does not refuse: a key repeated in one object (which would otherwise silently take
 * the last value), keys that could reach a prototype (`__proto__`, `constructor`, `prototype`),
 * nesting deeper than `limits.depth` and more than `limits.keys` keys. Numbers are read with
 * Number() from their exact text, so values equal JSON.parse's.
 */
export function parseStrictJson(text: string, limits: StrictJsonLimits): StrictJsonParse {
  const p = new Parser(text, limits);
  try {
    p.ws();
    const value = p.value(1);
    p.ws();
    if (p.i < text.length) p.fail('unexpected text after the JSON value');
    return { ok: true, value };
  } catch (e) {
    if (e instanceof JsonError) return { ok: false, error: e.message };
    throw e;
  }
}

class JsonError extends Error {}

class Parser {
  i = 0;
  private keys = 0;

  constructor(
    private readonly s: string,
    private readonly limits: StrictJsonLimits,
  ) {}

  fail(why: string): never {
    throw new JsonError(`body is not valid JSON: ${why} at position ${this.i}`);
  }

  ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return;
      this.i++;
    }
  }

  value(depth: number): unknown {
    const c = this.s.charAt(this.i);
    switch (c) {
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        if (c === '-' || (c >= '0' && c <= '9' && c !== '')) return this.number();
        return this.fail(c === '' ? 'unexpected end' : `unexpected character ${JSON.stringify(c)}`);
    }
  }

  private nest(depth: number): void {
    if (depth > this.limits.depth) this.fail(`nesting deeper than ${this.limits.depth} levels`);
  }

  private object(depth: number): Record<string, unknown> {
    this.nest(depth);
    this.i++;
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      if (this.s[this.i] !== '"') this.fail('expected a string key');
      const at = this.i;
      const key = this.string();
      if (++this.keys > this.limits.keys) this.fail(`more than ${this.limits.keys} keys`);
      if (seen.has(key)) {
        this.i = at;
        this.fail(`key ${JSON.stringify(key.slice(0, 32))} repeated in one object`);
      }
      if (isPrototypeKey(key)) {
        this.i = at;
        this.fail(`key ${JSON.stringify(key)} is not allowed`);
      }
      seen.add(key);
      this.ws();
      if (this.s[this.i] !== ':') this.fail("expected ':'");
      this.i++;
      this.ws();
      out[key] = this.value(depth + 1);
      this.ws();
      const c = this.s[this.i];
      this.i++;
      if (c === '}') return out;
      if (c !== ',') {
        this.i--;
        this.fail("expected ',' or '}'");
      }
      this.ws();
    }
  }

  private array(depth: number): unknown[] {
    this.nest(depth);
    this.i++;
    const out: unknown[] = [];
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.ws();
      const c = this.s[this.i];
      this.i++;
      if (c === ']') return out;
      if (c !== ',') {
        this.i--;
        this.fail("expected ',' or ']'");
      }
      this.ws();
    }
  }

  private string(): string {
    const s = this.s;
    let i = this.i + 1;
    let out = '';
    let run = i;
    for (;;) {
      if (i >= s.length) {
        this.i = i;
        this.fail('unterminated string');
      }
      const c = s.charCodeAt(i);
      if (c === 34) {
        out += s.slice(run, i);
        this.i = i + 1;
        return out;
      }
      if (c < 0x20) {
        this.i = i;
        this.fail('control character in a string');
      }
      if (c !== 92) {
        i++;
        continue;
      }
      out += s.slice(run, i);
      const e = s[i + 1];
      let width = 2;
      if (e === 'u') {
        const hex = s.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.i = i;
          this.fail('bad \\u escape');
        }
        out += String.fromCharCode(parseInt(hex, 16));
        width = 6;
      } else {
        const mapped = ESCAPES[e ?? ''];
        if (mapped === undefined) {
          this.i = i;
          this.fail('bad escape');
        }
        out += mapped;
      }
      i += width;
      run = i;
    }
  }

  private number(): number {
    const s = this.s;
    const start = this.i;
    let i = start;
    const digit = (): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;
    if (s[i] === '-') i++;
    if (s[i] === '0') i++;
    else if (digit()) while (digit()) i++;
    else {
      this.i = i;
      this.fail('bad number');
    }
    if (s[i] === '.') {
      i++;
      if (!digit()) {
        this.i = i;
        this.fail('bad number');
      }
      while (digit()) i++;
    }
    if (s[i] === 'e' || s[i] === 'E') {
      i++;
      if (s[i] === '+' || s[i] === '-') i++;
      if (!digit()) {
        this.i = i;
        this.fail('bad number');
      }
      while (digit()) i++;
    }
    this.i = i;
    return Number(s.slice(start, i));
  }

  private literal<T>(word: string, value: T): T {
    if (!this.s.startsWith(word, this.i)) this.fail(`unexpected character ${JSON.stringify(this.s[this.i])}`);
    this.i += word.length;
    return value;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
