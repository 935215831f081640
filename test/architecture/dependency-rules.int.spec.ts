import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@test/support';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

/** Run the project's dependency rules over `cwd`; the exit code and what depcruise printed. */
async function cruise(cwd: string, paths: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(DEPCRUISE, [...paths, '--config', '.dependency-cruiser.cjs'], { cwd });
    return { code: 0, out: stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, out: err.stdout };
  }
}

/** A tree at `tree` holding the project's rules, a tsconfig with `options` and `files` (path: text). */
function writeTree(tree: string, options: object, files: Readonly<Record<string, string>>): void {
  mkdirSync(tree, { recursive: true });
  cpSync(join(ROOT, '.dependency-cruiser.cjs'), join(tree, '.dependency-cruiser.cjs'));
  writeFileSync(
    join(tree, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { baseUrl: '.', ...options } }),
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(tree, path, '..'), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
}

describe('dependency rules (npm run check)', () => {
  const dir = tempDir('depcruise');
  afterAll(() => dir.remove());

  it('the tree as it is passes', async () => {
    const r = await cruise(ROOT, ['apps', 'libs', 'bench', 'test']);
    expect(r.out).toContain('no dependency violations found');
    expect(r.code).toBe(0);
  });

  it('an import from one app into another, a cycle and a deep lib import each fail the check, named', async () => {
    const tree = dir.path;
    writeTree(
      tree,
      { paths: { '@app/events': ['libs/events/src/index.ts'] } },
      {
        'apps/api/src/service.ts': 'export const service = 1;\n',
        'apps/replay/src/probe.ts':
          "import { service } from '../../api/src/service';\nexport const probe = service;\n",
        'libs/events/src/index.ts': "export { a } from './a';\n",
        'libs/events/src/a.ts': "import { b } from './b';\nexport const a = b;\n",
        'libs/events/src/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
        'libs/books/src/index.ts': "import { b } from '../../events/src/b';\nexport const book = b;\n",
      },
    );
    const r = await cruise(tree, ['apps', 'libs']);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/no-app-to-app: apps\/replay\/src\/probe\.ts → apps\/api\/src\/service\.ts/);
    expect(r.out).toMatch(/no-circular: libs\/events\/src\/a\.ts → /);
    expect(r.out).toMatch(/lib-index-only: libs\/books\/src\/index\.ts → libs\/events\/src\/b\.ts/);
  });

  it('an import back up inside apps/api (the edge reaching into the stream) fails the check, named', async () => {
    const tree = join(dir.path, 'api-rooms');
    writeTree(
      tree,
      {},
      {
        'apps/api/src/stream/stream-hub.ts': 'export const hub = 1;\n',
        'apps/api/src/edge/front-door.ts':
          "import { hub } from '../stream/stream-hub';\nexport const door = hub;\n",
        'apps/api/src/route/route.controller.ts':
          "import { door } from '../edge/front-door';\nexport const r = door;\n",
      },
    );
    const r = await cruise(tree, ['apps']);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(
      /api-rooms-edge: apps\/api\/src\/edge\/front-door\.ts → apps\/api\/src\/stream\/stream-hub\.ts/,
    );
    // Downward imports pass: the route reading the edge is not reported.
    expect(r.out).not.toMatch(/api-rooms-route/);
  });

  it('a page script importing a value, or imported by other code, fails the check; a type import passes', async () => {
    const tree = join(dir.path, 'browser');
    writeTree(
      tree,
      {},
      {
        'apps/api/src/shape.ts': 'export interface Shape { n: number }\nexport const shape = 1;\n',
        'apps/api/src/browser/typed.ts':
          "import type { Shape } from '../shape';\nconst s: Shape = { n: 1 };\n",
        'apps/api/src/browser/page.ts': "import { shape } from '../shape';\nconsole.log(shape);\n",
        'apps/api/src/page-html.ts': "import './browser/typed';\nexport const html = '';\n",
      },
    );
    const r = await cruise(tree, ['apps']);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(
      /browser-scripts-types-only: apps\/api\/src\/browser\/page\.ts → apps\/api\/src\/shape\.ts/,
    );
    expect(r.out).toMatch(
      /browser-scripts-apart: apps\/api\/src\/page-html\.ts → apps\/api\/src\/browser\/typed\.ts/,
    );
    expect(r.out).not.toMatch(/typed\.ts → apps\/api\/src\/shape\.ts/);
  });
});
