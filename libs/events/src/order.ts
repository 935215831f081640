/**
 * Code-unit order of strings: the same on every machine and locale (localeCompare is not), so
 * every sort of venue ids, symbols, keys and file names is reproducible byte for byte.
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
