import { readBuiltFile } from '@app/config';

/**
 * A page's own script (apps/api/src/browser/<name>.ts, type-checked and linted there), as the
 * build wrote it: a classic script, read when the page is built at start.
 */
export function browserScript(name: 'docs' | 'explorer'): string {
  return scriptText(readBuiltFile(`apps/api/src/browser/${name}.js`));
}

/** Script text to inline in <script>...</script>: only "</script" could end the element early. */
export function scriptText(source: string): string {
  return source.replace(/<\/script/gi, '<\\/script');
}
