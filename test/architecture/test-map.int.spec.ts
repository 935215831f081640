import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..', '..');

/** The repository's files as git tracks them (what a clean checkout holds). */
const tracked = (): string[] =>
  execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);

/**
 * Source files that need a test: TypeScript under apps/ and libs/, except specs, declarations
 * (.d.ts: types only, nothing to run), index.ts barrels (re-exports only; their files are tested)
 * and files in a library's own test/ folder (fixtures and child programs its specs run, never shipped).
 */
const needsTest = (f: string): boolean =>
  /^(apps|libs)\//.test(f) &&
  f.endsWith('.ts') &&
  !/\.(spec|d)\.ts$/.test(f) &&
  basename(f) !== 'index.ts' &&
  !f.includes('/test/');

/** The unmapped list is empty since 2026-11-29: a new file goes in the map or gets a named test, never in the list. */
const UNMAPPED_MOST = 0;

const specStem = (s: string): string => basename(s).replace(/\.(?:(?:int|e2e|fleet)\.)?spec\.ts$/, '');

/** foo.ts is tested by foo.spec.ts or foo.<tier>.spec.ts beside it or anywhere under test/. */
const namedTests = (f: string, specs: string[]): string[] =>
  specs.filter(
    (s) => specStem(s) === basename(f, '.ts') && (dirname(s) === dirname(f) || s.startsWith('test/')),
  );

interface TestMap {
  /** source file -> { real test file -> one line: how it exercises the source file } */
  map: Record<string, Record<string, string>>;
  /** files with neither a named test nor a reviewed entry yet: may only shrink */
  unmapped: string[];
}

describe('every source file has a test: named after it, or in test/test-map.json', () => {
  const files = tracked();
  const present = new Set(files);
  const specs = files.filter((f) => f.endsWith('.spec.ts'));
  const sources = files.filter(needsTest);
  const { map, unmapped } = JSON.parse(readFileSync(resolve(ROOT, 'test/test-map.json'), 'utf8')) as TestMap;

  it('a source file without a same-named test is in the map (or, for now, the unmapped list)', () => {
    const listed = new Set([...Object.keys(map), ...unmapped]);
    expect(sources.filter((f) => namedTests(f, specs).length === 0 && !listed.has(f))).toEqual([]);
  });

  it('every map entry names source and test files that exist, each test with a reason', () => {
    const bad: string[] = [];
    for (const [source, tests] of Object.entries(map)) {
      if (!present.has(source)) bad.push(`${source}: no such source file`);
      if (Object.keys(tests).length === 0) bad.push(`${source}: no test named`);
      for (const [test, reason] of Object.entries(tests)) {
        if (!present.has(test) || !test.endsWith('.spec.ts'))
          bad.push(`${source}: ${test} is not a spec file`);
        if (!reason.trim()) bad.push(`${source}: ${test} has no reason`);
      }
    }
    for (const source of unmapped)
      if (!present.has(source)) bad.push(`${source}: unmapped, but no such file`);
    expect(bad).toEqual([]);
  });

  it('no entry is stale: a file with a same-named test is neither mapped nor unmapped', () => {
    const stale = [...Object.keys(map), ...unmapped].filter((f) => namedTests(f, specs).length > 0);
    expect(stale).toEqual([]);
  });

  it('the unmapped list only shrinks: lower UNMAPPED_MOST when an entry leaves it', () => {
    expect(unmapped.length).toBeLessThanOrEqual(UNMAPPED_MOST);
  });

  it('no file is both mapped and unmapped', () => {
    expect(unmapped.filter((f) => f in map)).toEqual([]);
  });
});
