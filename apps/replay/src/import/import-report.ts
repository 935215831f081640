import type { ImportResult } from '@app/import';

/** Mappings listed on stderr after an import (the rest are counted). */
const SHOWN_MAPPINGS = 12;

/** Why the import wrote nothing: every exchange and symbol it could not map, and every collision. */
export function unmappedLines(r: ImportResult): string[] {
  const lines: string[] = [];
  if (r.unmapped.length > 0) {
    lines.push(
      `import stopped: ${r.unmapped.length} exchange/symbol pair(s) cannot be mapped (map them in a --symbols file, or pass --skip-unmapped to leave their rows out); nothing written:`,
    );
    // An exchange without a venue id is one reason for all its symbols: named once, with them.
    const byWhy = new Map<string, string[]>();
    for (const u of r.unmapped) byWhy.set(u.why, [...(byWhy.get(u.why) ?? []), u.symbol]);
    for (const [why, symbols] of byWhy)
      lines.push(why.startsWith('exchange ') ? `  ${why}: ${symbols.join(', ')}` : `  ${why}`);
  }
  if (r.collisions.length > 0) {
    lines.push(
      `import stopped: ${r.collisions.length} pair(s) would feed one book (map one of each elsewhere in --symbols):`,
    );
    for (const c of r.collisions) lines.push(`  ${c}`);
  }
  return lines;
}

/** The one line on fees and order rules: these datasets carry neither. */
export function marketsLine(r: ImportResult, withFile: boolean): string {
  const total = r.marketsWithTerms + r.marketsWithoutTerms;
  if (r.marketsWithoutTerms === 0)
    return `markets: all ${total} markets have their fee and order rules from --markets`;
  const which = withFile
    ? `${r.marketsWithoutTerms} of ${total} markets are not in --markets, so they carry`
    : `no --markets file: the ${total} markets carry`;
  return `markets: ${which} takerFeeRate null (the router applies its default taker fee) and no order rules`;
}

/** The import's summary: what was read, what was written, what was left out. */
export function summaryLines(r: ImportResult, path: string, ms: number, moreProblems: boolean): string[] {
  const lines = r.mapping.slice(0, SHOWN_MAPPINGS).map((m) => `mapped ${m.native} -> ${m.unified}`);
  if (r.mapping.length > SHOWN_MAPPINGS) lines.push(`mapped ${r.mapping.length - SHOWN_MAPPINGS} more books`);
  const left: string[] = [];
  if (r.beforeSnapshot > 0) left.push(`${r.beforeSnapshot} changes before their book's first snapshot`);
  if (r.leftOut > 0) left.push(`${r.leftOut} rows of unmapped or doubly fed books`);
  if (r.otherMessages > 0) left.push(`${r.otherMessages} messages of other types`);
  if (r.emptyFiles > 0) left.push(`${r.emptyFiles} empty files`);
  lines.push(
    `import: ${r.files} files, ${r.rows} rows read; wrote ${r.records} records (${r.books} books on ${r.venues} venues) to ${path} (${(r.bytes / 1e6).toFixed(1)} MB) in ${(ms / 1000).toFixed(1)} s`,
    `bad rows: ${r.problemSummary}${moreProblems ? ` (the first ones above; all in ${path.replace(/\.jsonl$/, '.problems.txt')})` : ''}${left.length > 0 ? `; left out: ${left.join(', ')}` : ''}`,
  );
  return lines;
}
