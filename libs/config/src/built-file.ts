import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A file the build (scripts/build.mjs) wrote under dist/, by its path there, e.g. a page's browser
 * script: found from the project's root (the nearest package.json above this file), so the built
 * service, the image and the sources run by vitest all read the one built file.
 */
export function readBuiltFile(path: string): string {
  let root = __dirname;
  while (!existsSync(join(root, 'package.json'))) {
    if (dirname(root) === root) throw new Error(`no package.json above ${__dirname}`);
    root = dirname(root);
  }
  const file = join(root, 'dist', path);
  if (!existsSync(file)) throw new Error(`${file} is missing: npm run build writes it`);
  return readFileSync(file, 'utf8');
}
