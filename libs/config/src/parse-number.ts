/** What a number must be: an integer or a plain decimal, within [min, max]. */
export interface NumberBounds {
  readonly integer: boolean;
  readonly min: number;
  readonly max: number;
}

/** A number read from text, or why not: not written as one (`syntax`), or outside the bounds (`range`). */
export type NumberRead = { readonly value: number } | { readonly problem: 'syntax' | 'range' };

// A minus sign is only the syntax of a range that reaches below zero: `-5` for a count or a port
// is refused as not written like one, whatever the bounds.
const SYNTAX = {
  integer: { signed: /^[+-]?\d+$/, unsigned: /^[+]?\d+$/ },
  decimal: {
    signed: /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/,
    unsigned: /^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/,
  },
} as const;

/**
 * The one parser of numbers given as text (flags, environment variables, command options):
 * plain decimal notation only (no hex, no `Infinity`, no blanks), checked against `bounds`.
 */
export function parseNumber(raw: string, bounds: NumberBounds): NumberRead {
  const forms = bounds.integer ? SYNTAX.integer : SYNTAX.decimal;
  if (!(bounds.min < 0 ? forms.signed : forms.unsigned).test(raw)) return { problem: 'syntax' };
  const n = Number(raw);
  if (!Number.isFinite(n) || n < bounds.min || n > bounds.max) return { problem: 'range' };
  return { value: n };
}
