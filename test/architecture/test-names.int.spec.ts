import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..', '..');

/** The repository's files as git tracks them (what a clean checkout holds). */
const tracked = (): string[] =>
  execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);

/** A spec's tier from its name: one suffix style, `<name>.<tier>.spec.ts` (unit: `<name>.spec.ts`). */
const TIER = /\.(?:(int|e2e|fleet)\.)?spec\.ts$/;

describe('test file names: one suffix style', () => {
  const files = tracked();

  it('no test file uses another suffix (e.g. -spec.ts, .test.ts)', () => {
    expect(files.filter((f) => /(?:-spec|\.test)\.[cm]?[jt]s$/.test(f))).toEqual([]);
  });

  it('whole-app tiers live under test/ (e2e, fleet), next to no source file', () => {
    const whole = files.filter((f) => /\.(e2e|fleet)\.spec\.ts$/.test(f));
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.filter((f) => !f.startsWith('test/'))).toEqual([]);
    expect(whole.filter((f) => /\.fleet\.spec\.ts$/.test(f) && !f.startsWith('test/fleet/'))).toEqual([]);
  });

  it('every spec names one tier', () => {
    const specs = files.filter((f) => f.endsWith('spec.ts'));
    expect(specs.filter((f) => !TIER.test(f))).toEqual([]);
  });
});
