import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..', '..');

/** The house limit (README "Tests and benchmarks"): a longer file is split by responsibility. */
const MAX_LINES = 400;

/** Generated from the OpenAPI document and checked against it by its own test: nobody edits it by hand. */
const GENERATED = new Set(['libs/client/src/openapi.ts']);

describe('every hand-written source file stays within 400 lines', () => {
  it('no TypeScript file of apps/, libs/, bench/ or test/ is longer, generated files aside', () => {
    const files = execFileSync('git', ['ls-files', '-z', 'apps', 'libs', 'bench', 'test'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((f) => f.endsWith('.ts') && !GENERATED.has(f));
    expect(files.length).toBeGreaterThan(500);
    const long = files
      .map((f) => ({ f, lines: readFileSync(resolve(ROOT, f), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
