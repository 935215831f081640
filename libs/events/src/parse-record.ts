import {
  MARKET_RULE_FIELDS,
  type BookRecord,
  type EventRecord,
  type Level,
  type MarketRecord,
  type MarketRuleField,
  type VenueRecord,
} from './records';
import { RecordError } from './record-error';

export type ParseResult =
  { readonly ok: true; readonly record: EventRecord } | { readonly ok: false; readonly error: RecordError };

type Obj = Record<string, unknown>;

/** Parse one JSON Lines line into a validated record; never throws. */
export function parseRecordLine(line: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    const head = line.length > 60 ? `${line.slice(0, 60)}...` : line;
    return { ok: false, error: new RecordError('not_json', `'${head}'`, null, 'is not valid JSON') };
  }
  return parseRecord(value);
}

/** Validate a decoded value as an event record; never throws and never returns a partial record. */
export function parseRecord(value: unknown): ParseResult {
  try {
    return { ok: true, record: validate(value) };
  } catch (e) {
    if (e instanceof RecordError) return { ok: false, error: e };
    throw e;
  }
}

class LazyName {
  private text: string | null = null;
  constructor(private readonly o: Obj) {}
  get(): string {
    this.text ??= describe(this.o);
    return this.text;
  }
}

function describe(o: Obj): string {
  const parts = [o.type, o.exchangeId, o.symbol].filter((p): p is string => typeof p === 'string');
  const seq = typeof o.sequence === 'number' ? ` #${o.sequence}` : '';
  return parts.length > 0 ? `${parts.join(' ')}${seq}` : '(unnamed record)';
}

function validate(value: unknown): EventRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RecordError('not_object', '(not an object)', null, 'must be a JSON object');
  }
  const o = value as Obj;
  // The description is built only when a record is rejected: this parser is on the fold's hot path.
  const name = new LazyName(o);
  if (o.v !== 1)
    throw new RecordError('bad_version', name.get(), 'v', `unsupported version ${JSON.stringify(o.v)}`);
  switch (o.type) {
    case 'book':
      return book(o, name);
    case 'market':
      return market(o, name);
    case 'venue':
      return venue(o, name);
    default:
      throw new RecordError('bad_type', name.get(), 'type', `unknown record type ${JSON.stringify(o.type)}`);
  }
}

function field(o: Obj, name: LazyName, key: string): unknown {
  if (!(key in o) || o[key] === undefined)
    throw new RecordError('missing_field', name.get(), key, 'is missing');
  return o[key];
}

function str(o: Obj, name: LazyName, key: string): string {
  const v = field(o, name, key);
  if (typeof v !== 'string' || v.length === 0)
    throw new RecordError('bad_field', name.get(), key, 'must be a non-empty string');
  return v;
}

function bool(o: Obj, name: LazyName, key: string): boolean {
  const v = field(o, name, key);
  if (typeof v !== 'boolean') throw new RecordError('bad_field', name.get(), key, 'must be a boolean');
  return v;
}

function finite(o: Obj, name: LazyName, key: string): number {
  const v = field(o, name, key);
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new RecordError('bad_field', name.get(), key, 'must be a finite number');
  return v;
}

function time(o: Obj, name: LazyName, key: string): number {
  const v = finite(o, name, key);
  if (!Number.isSafeInteger(v) || v < 0)
    throw new RecordError('bad_field', name.get(), key, 'must be a non-negative integer epoch ms');
  return v;
}

function levels(o: Obj, name: LazyName, key: string): Level[] {
  const v = field(o, name, key);
  if (!Array.isArray(v))
    throw new RecordError('bad_field', name.get(), key, 'must be an array of [price, amount]');
  let out: Level[] | null = null;
  for (let i = 0; i < v.length; i++) {
    const l: unknown = v[i];
    if (!Array.isArray(l) || l.length < 2)
      throw new RecordError('bad_field', name.get(), `${key}[${i}]`, 'must be [price, amount]');
    const price: unknown = l[0];
    const amount: unknown = l[1];
    if (typeof price !== 'number' || !Number.isFinite(price) || price <= 0) {
      throw new RecordError('bad_field', name.get(), `${key}[${i}]`, 'price must be a finite number > 0');
    }
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
      throw new RecordError('bad_field', name.get(), `${key}[${i}]`, 'amount must be a finite number >= 0');
    }
    // Fresh pairs from JSON.parse are kept as they are; anything longer is copied down to two.
    if (l.length !== 2) {
      out ??= (v as Level[]).slice(0, i);
      out.push([price, amount]);
    } else if (out !== null) {
      out.push(l as unknown as Level);
    }
  }
  return out ?? (v as Level[]);
}

function book(o: Obj, name: LazyName): BookRecord {
  const sequence = finite(o, name, 'sequence');
  if (!Number.isSafeInteger(sequence) || sequence < 0)
    throw new RecordError('bad_field', name.get(), 'sequence', 'must be a non-negative integer');
  const ts = field(o, name, 'exchangeTimestamp');
  if (ts !== null && (typeof ts !== 'number' || !Number.isSafeInteger(ts) || ts < 0)) {
    throw new RecordError(
      'bad_field',
      name.get(),
      'exchangeTimestamp',
      'must be null or a non-negative integer epoch ms',
    );
  }
  const snapshot = bool(o, name, 'snapshot');
  const bids = levels(o, name, 'bids');
  const asks = levels(o, name, 'asks');
  if (snapshot) {
    checkSnapshotSide(bids, name, 'bids', -1);
    checkSnapshotSide(asks, name, 'asks', 1);
  }
  const base: BookRecord = {
    v: 1,
    type: 'book',
    exchangeId: str(o, name, 'exchangeId'),
    symbol: symbol(o, name),
    snapshot,
    bids,
    asks,
    sequence,
    exchangeTimestamp: ts,
    receivedAt: time(o, name, 'receivedAt'),
  };
  // Without an epoch the record is the base record, byte for byte once serialised again.
  if (o.epoch === undefined) return base;
  const epoch = o.epoch;
  if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 0)
    throw new RecordError('bad_field', name.get(), 'epoch', 'must be a non-negative integer');
  return { ...base, epoch };
}

/** Snapshot sides must be strictly sorted (bids descending, asks ascending) with no zero amounts. */
function checkSnapshotSide(side: Level[], name: LazyName, key: string, dir: 1 | -1): void {
  for (let i = 0; i < side.length; i++) {
    const level = side[i]!;
    if (level[1] === 0)
      throw new RecordError('bad_field', name.get(), `${key}[${i}]`, 'snapshot levels must have amount > 0');
    if (i > 0 && (level[0] - side[i - 1]![0]) * dir <= 0) {
      throw new RecordError(
        'bad_field',
        name.get(),
        `${key}[${i}]`,
        dir < 0 ? 'snapshot bids must be strictly descending' : 'snapshot asks must be strictly ascending',
      );
    }
  }
}

function symbol(o: Obj, name: LazyName): string {
  const s = str(o, name, 'symbol');
  const slash = s.indexOf('/');
  if (slash <= 0 || slash !== s.lastIndexOf('/') || slash === s.length - 1) {
    throw new RecordError('bad_field', name.get(), 'symbol', 'must be a unified symbol BASE/QUOTE');
  }
  return s;
}

function market(o: Obj, name: LazyName): MarketRecord {
  const sym = symbol(o, name);
  const base = str(o, name, 'base');
  const quote = str(o, name, 'quote');
  if (`${base}/${quote}` !== sym)
    throw new RecordError('bad_field', name.get(), 'symbol', `must equal base/quote (${base}/${quote})`);
  const fee = field(o, name, 'takerFeeRate');
  if (fee !== null && (typeof fee !== 'number' || !Number.isFinite(fee) || fee < 0 || fee >= 1)) {
    throw new RecordError('bad_field', name.get(), 'takerFeeRate', 'must be null or a fraction in [0, 1)');
  }
  const exchangeId = str(o, name, 'exchangeId');
  const receivedAt = time(o, name, 'receivedAt');
  const rules = marketRules(o, name);
  // A record without rules parses to exactly the fields it had, so it re-serialises to the same
  // bytes; present rules sit before receivedAt, in the documented order.
  if (rules === null)
    return { v: 1, type: 'market', exchangeId, symbol: sym, base, quote, takerFeeRate: fee, receivedAt };
  return {
    v: 1,
    type: 'market',
    exchangeId,
    symbol: sym,
    base,
    quote,
    takerFeeRate: fee,
    ...rules,
    receivedAt,
  };
}

/** The optional order rules present on a market record (each null or a finite number > 0); null when none is. */
function marketRules(o: Obj, name: LazyName): Partial<Record<MarketRuleField, number | null>> | null {
  let out: Partial<Record<MarketRuleField, number | null>> | null = null;
  for (const key of MARKET_RULE_FIELDS) {
    const v = o[key];
    if (v === undefined) continue;
    if (v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v <= 0))
      throw new RecordError('bad_field', name.get(), key, 'must be null or a finite number > 0');
    (out ??= {})[key] = v;
  }
  return out;
}

function venue(o: Obj, name: LazyName): VenueRecord {
  const lastError = field(o, name, 'lastError');
  if (lastError !== null && typeof lastError !== 'string')
    throw new RecordError('bad_field', name.get(), 'lastError', 'must be null or a string');
  const base: VenueRecord = {
    v: 1,
    type: 'venue',
    exchangeId: str(o, name, 'exchangeId'),
    certified: bool(o, name, 'certified'),
    connected: bool(o, name, 'connected'),
    lastError,
    receivedAt: time(o, name, 'receivedAt'),
  };
  if (o.reconnectCount === undefined) return base;
  const rc = o.reconnectCount;
  if (typeof rc !== 'number' || !Number.isSafeInteger(rc) || rc < 0) {
    throw new RecordError('bad_field', name.get(), 'reconnectCount', 'must be a non-negative integer');
  }
  return { ...base, reconnectCount: rc };
}
