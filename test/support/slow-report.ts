import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints, after every run, the slowest test files and the slowest tests, so whoever waits for the
 * suite sees what to speed up first. File time is vitest's own split: collecting (imports and
 * transform) apart from running the tests, since a slow file is as often slow to load as to run.
 */
const SHOWN = 8;

export default class SlowReport implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length === 0) return;
    const files = modules.map((m) => {
      const d = m.diagnostic();
      return { name: m.moduleId.replace(`${process.cwd()}/`, ''), run: d.duration, load: d.collectDuration };
    });
    const tests = modules.flatMap((m) =>
      [...m.children.allTests()].map((t) => ({
        name: `${m.moduleId.replace(`${process.cwd()}/`, '')} > ${t.fullName}`,
        run: t.diagnostic()?.duration ?? 0,
      })),
    );
    const ms = (n: number): string => `${Math.round(n)} ms`.padStart(9);
    const lines = ['', `Slowest files (of ${files.length}): run, collect`];
    for (const f of [...files].sort((a, b) => b.run + b.load - (a.run + a.load)).slice(0, SHOWN)) {
      lines.push(`${ms(f.run)} ${ms(f.load)}  ${f.name}`);
    }
    lines.push(`Slowest tests (of ${tests.length}):`);
    for (const t of tests.sort((a, b) => b.run - a.run).slice(0, SHOWN))
      lines.push(`${ms(t.run)}  ${t.name}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
