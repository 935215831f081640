// Exact decimal arithmetic on the numbers a result prints, for the tests of executable legs: the
// JSON text of a finite number (what String gives) read as an integer over a power of ten.

/** A decimal: `int / 10^scale`. */
export interface Decimal {
  readonly int: bigint;
  readonly scale: number;
}

/** The exact decimal a finite number prints as. */
export function decimal(x: number): Decimal {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  const text = String(x);
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exp = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const fraction = dot < 0 ? '' : mantissa.slice(dot + 1);
  let int = BigInt((dot < 0 ? mantissa : mantissa.slice(0, dot)) + fraction);
  let scale = fraction.length - exp;
  if (scale < 0) {
    int *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { int, scale };
}

function at(d: Decimal, scale: number): bigint {
  return d.int * 10n ** BigInt(scale - d.scale);
}

/** Whether `amount` (as printed) is a whole multiple of `step` (as printed), exactly. */
export function isWholeMultiple(amount: number, step: number): boolean {
  const a = decimal(amount);
  const s = decimal(step);
  const scale = Math.max(a.scale, s.scale);
  return at(a, scale) % at(s, scale) === 0n;
}

/** Whether the printed decimals of `parts` add up to the printed decimal of `total`, exactly. */
export function sumsExactly(parts: readonly number[], total: number): boolean {
  const ds = parts.map(decimal);
  const t = decimal(total);
  const scale = Math.max(t.scale, ...ds.map((d) => d.scale));
  return ds.reduce((acc, d) => acc + at(d, scale), 0n) === at(t, scale);
}
