import { readBuiltFile } from '@app/config';
import { inlineScript } from '@app/html';

/**
 * A page's own script (apps/api/src/browser/<name>.ts, type-checked and linted there), as the
 * build wrote it: a classic script, read when the page is built at start.
 */
export function browserScript(name: 'docs' | 'explorer'): string {
  return inlineScript(readBuiltFile(`apps/api/src/browser/${name}.js`));
}
