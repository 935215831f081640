import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TARDIS_EXCHANGES } from '@app/import';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli';

/** The text of docs/replay.md between `<!-- name -->` and `<!-- /name -->`. */
function between(name: string): string {
  const doc = readFileSync(join(ROOT, 'docs/replay.md'), 'utf8');
  const open = `<!-- ${name} -->`;
  const from = doc.indexOf(open);
  expect(from, name).toBeGreaterThan(0);
  return doc.slice(from + open.length, doc.indexOf(`<!-- /${name} -->`));
}

describe('docs/replay.md "Exchanges and symbols" says what the import does', () => {
  it('lists every exchange of the table, each with its ccxt id, spot rule or --symbols only', () => {
    const spot = [...between('import-exchanges:spot').matchAll(/^\| `([^`]+)` +\| `([^`]+)` +\|/gm)].map(
      (m) => `${m[1]!} ${m[2]!}`,
    );
    // `a`, `b` -> `c`: every id before an arrow maps to the id after it.
    const explicit: string[] = [];
    let pending: string[] = [];
    let arrow = false;
    for (const [token] of between('import-exchanges:explicit').matchAll(/`[^`]+`|->/g)) {
      if (token === '->') arrow = true;
      else if (arrow) {
        explicit.push(...pending.map((p) => `${p} ${token.slice(1, -1)}`));
        pending = [];
        arrow = false;
      } else pending.push(token.slice(1, -1));
    }
    const of = (explicitOnly: boolean): string[] =>
      TARDIS_EXCHANGES.filter((e) => (e.shape.kind === 'explicit') === explicitOnly)
        .map((e) => `${e.tardis} ${e.ccxt}`)
        .sort();
    expect([...spot].sort()).toEqual(of(false));
    expect([...explicit].sort()).toEqual(of(true));
  });
});
