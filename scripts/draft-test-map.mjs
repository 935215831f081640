// Drafts test/test-map.json (print to stdout; review before committing): for each source file with
// no same-named test, the specs that import it directly, or import its library's @app/<lib> index
// and use a name the file exports. Files with neither go to "unmapped", the list the architecture
// test allows to shrink only. The reasons are a draft's: a reviewer checks each entry.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const files = execFileSync('git', ['ls-files', 'apps', 'libs', 'test'], { encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);
const specs = files.filter((f) => f.endsWith('.spec.ts'));
const isSource = (f) =>
  /^(apps|libs)\//.test(f) &&
  f.endsWith('.ts') &&
  !/\.(spec|d)\.ts$/.test(f) &&
  !f.endsWith('/index.ts') &&
  !f.includes('/test/');
const stem = (f) => f.split('/').pop().replace(/\.ts$/, '');
const specStem = (s) =>
  s
    .split('/')
    .pop()
    .replace(/\.(?:(?:int|e2e|fleet)\.)?spec\.ts$/, '');
const hasNamed = (f) =>
  specs.some((s) => specStem(s) === stem(f) && (dirname(s) === dirname(f) || s.startsWith('test/')));
const text = new Map(specs.map((s) => [s, readFileSync(s, 'utf8')]));
const imports = new Map();
for (const s of specs) {
  const got = new Set();
  // a type-only import runs nothing of the file
  for (const m of text
    .get(s)
    .replace(/^import type [^;]*;/gm, '')
    .matchAll(/from '([^']+)'|import\('([^']+)'\)/g)) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith('.')) got.add(normalize(join(dirname(s), spec)).replace(/\.js$/, ''));
    else if (spec.startsWith('@app/')) got.add(`@${spec.slice(5)}`);
  }
  imports.set(s, got);
}
const libOf = (f) => (f.startsWith('libs/') ? `@${f.split('/')[1]}` : null);
const exported = (f) =>
  [
    ...readFileSync(f, 'utf8').matchAll(/^export (?:abstract )?(?:class|function|const|let|enum) (\w+)/gm),
  ].map((m) => m[1]);
// a name counts as used only where the spec does not declare its own of that name
const uses = (s, n) =>
  new RegExp(`(?<![.\\w'"])${n}\\b`).test(text.get(s)) &&
  !new RegExp(`(?:const|let|function|class) ${n}\\b`).test(text.get(s));
const map = {};
const unmapped = [];
for (const f of files.filter(isSource)) {
  if (hasNamed(f)) continue;
  const entry = {};
  const bare = f.replace(/\.ts$/, '');
  for (const s of specs) {
    if (imports.get(s).has(bare)) {
      const used = exported(f).filter((n) => uses(s, n));
      entry[s] = used.length ? `imports and calls ${used.slice(0, 3).join(', ')}` : `imports ${stem(f)}`;
    }
  }
  if (!Object.keys(entry).length && libOf(f)) {
    for (const s of specs) {
      if (!imports.get(s).has(libOf(f))) continue;
      const used = exported(f).filter((n) => uses(s, n));
      if (used.length)
        entry[s] = `uses ${used.slice(0, 3).join(', ')} through ${libOf(f).replace('@', '@app/')}`;
    }
  }
  if (Object.keys(entry).length) map[f] = entry;
  else unmapped.push(f);
}
process.stdout.write(`${JSON.stringify({ map, unmapped }, null, 2)}\n`);
