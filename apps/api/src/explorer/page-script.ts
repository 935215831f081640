import { readBuiltFile } from '@app/config';
import { inlineScript } from '@app/html';

/**
 * A page's own script (apps/api/src/browser/<name>.ts, type-checked and linted there), as the
 * build wrote it: a classic script, read when the page is built at start.
 */
export function browserScript(name: 'docs' | 'explorer'): string {
  return inlineScript(readBuiltFile(`apps/api/src/browser/${name}.js`));
}

/**
 * The typed client's stream v2 (libs/client/src/stream-v2.ts) as a classic script that defines
 * `window.routeStreamV2`: the same code the Node clients run, so the page reconnects and resumes
 * as they do. The build writes it as CommonJS; it imports types only, so its one dependency is the
 * `exports` object given here. A runtime import would need a loader the page does not have: the
 * page is refused at start, naming the file, rather than served broken.
 */
export function streamClientScript(): string {
  const file = 'libs/client/src/stream-v2.js';
  const code = readBuiltFile(file);
  if (/\brequire\s*\(/.test(code))
    throw new Error(`${file} imports at run time: the explorer cannot load it`);
  return inlineScript(
    `(() => {\n'use strict';\nconst exports = {};\n${code.trimEnd()}\nwindow.routeStreamV2 = exports;\n})();\n`,
  );
}
