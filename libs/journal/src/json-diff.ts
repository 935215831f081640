/** One differing field: its JSON path and both values (undefined = absent on that side). */
export interface JsonChange {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/**
 * Field-level differences between two JSON values, in document order: objects by key (expected's
 * keys first, then keys only `actual` has), arrays by index. Scalars compare with === (JSON
 * has no NaN, and 0 and -0 print alike).
 */
export function jsonDiff(
  expected: unknown,
  actual: unknown,
  path = '$',
  out: JsonChange[] = [],
): JsonChange[] {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) jsonDiff(expected[i], actual[i], `${path}[${i}]`, out);
    return out;
  }
  if (isObject(expected) && isObject(actual)) {
    for (const k of Object.keys(expected)) jsonDiff(expected[k], actual[k], `${path}.${k}`, out);
    for (const k of Object.keys(actual))
      if (!(k in expected)) out.push({ path: `${path}.${k}`, expected: undefined, actual: actual[k] });
    return out;
  }
  if (expected === actual) return out;
  out.push({ path, expected, actual });
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
