import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@test/support';

// The build of the pages' browser scripts (scripts/build-browser.mjs), run on a tree of its own with
// this checkout's build script, tsconfigs and node_modules: a file importing types only becomes a
// classic script (no import, no export; its names its own) with the same bytes on every build, and a
// runtime import stops the build, naming the file.
const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
const PAGE = 'apps/site/src/browser/page.ts';
const BUILT = 'dist/apps/site/src/browser/page.js';

const TYPED_PAGE = `/** The page's script. */
import type { Chart as ChartJs } from 'chart.js';
declare const Chart: typeof ChartJs;
declare global {
  interface Window {
    drawn: number;
  }
}
function draw(): number {
  return Chart.name === 'Chart' ? 1 : 0;
}
window.drawn = draw();
`;

describe('the browser scripts build', () => {
  const dir = tempDir('browser-build');
  const tree = dir.path;
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  };
  const build = async (...args: string[]): Promise<{ code: number; err: string }> => {
    try {
      const { stderr } = await run(process.execPath, ['scripts/build.mjs', ...args], { cwd: tree });
      return { code: 0, err: stderr };
    } catch (e) {
      const err = e as { code: number; stderr: string };
      return { code: err.code, err: err.stderr };
    }
  };

  beforeAll(() => {
    for (const f of ['scripts/build.mjs', 'scripts/build-browser.mjs'])
      cpSync(join(ROOT, f), join(tree, f), { recursive: true });
    for (const f of ['tsconfig.json', 'tsconfig.build.json', 'tsconfig.browser.json'])
      cpSync(join(ROOT, f), join(tree, f));
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    write('apps/site/src/main.ts', 'export const main = 1;\n');
  });
  afterAll(() => dir.remove());

  it('turns a file importing types only into a classic script, the same bytes every time', async () => {
    write(PAGE, TYPED_PAGE);
    expect((await build('--clean')).code).toBe(0);
    const first = readFileSync(join(tree, BUILT), 'utf8');
    expect(first).not.toMatch(/\b(import|export|require)\b/);
    // A classic script: it runs as it is, in a context with nothing but the page's globals, and its
    // top-level names stay inside it.
    const page: Record<string, unknown> = { Chart: class Chart {} };
    page.window = page;
    runInNewContext(first, page);
    expect(page.drawn).toBe(1);
    expect(Object.keys(page).sort()).toEqual(['Chart', 'drawn', 'window']);
    // The Node side of the same tree is still CommonJS.
    expect(readFileSync(join(tree, 'dist/apps/site/src/main.js'), 'utf8')).toContain(
      'Object.defineProperty(exports, "main"',
    );

    rmSync(join(tree, 'dist'), { recursive: true, force: true });
    expect((await build()).code).toBe(0);
    expect(readFileSync(join(tree, BUILT), 'utf8')).toBe(first);
  }, 30_000);

  it('refuses a runtime import, naming the file', async () => {
    write(PAGE, `import { createApiClient } from '@app/client';\nconsole.log(createApiClient);\n`);
    const r = await build();
    expect(r.code).toBe(1);
    expect(r.err).toContain(`build: ${PAGE}: a browser script imports types only and exports nothing`);
  }, 30_000);
});
