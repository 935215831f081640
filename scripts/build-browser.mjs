/**
 * The browser half of scripts/build.mjs: the pages' scripts (tsconfig.browser.json's include, e.g.
 * apps/api/src/browser/explorer.ts) compiled by the same SWC, one file at a time, each to a classic
 * script the page inlines in a <script> element: no module loader in the page, nothing fetched.
 *
 * A browser file may import types only (`import type`, erased): its own code runs as it is, inside
 * a function, so its top-level names stay its own, as tsconfig.browser.json's `moduleDetection:
 * force` tells the type-checker. A runtime import or an export would need a loader the pages do not
 * have, so the build refuses it, naming the file. No source map: the text is inlined in a page,
 * where a map's URL would point nowhere.
 */

/** SWC settings for the browser files, from tsconfig.browser.json's compilerOptions. */
export function browserSwcOptions(co) {
  return {
    swcrc: false,
    configFile: false,
    sourceMaps: false,
    jsc: {
      parser: { syntax: 'typescript' },
      target: String(co.target ?? 'es2020').toLowerCase(),
      // As tsc's verbatimModuleSyntax: an import not written `import type` is kept, and refused below.
      transform: { verbatimModuleSyntax: co.verbatimModuleSyntax === true },
      // Readable, without comments: they are the source's (a file's opening one, attached to an
      // erased import, would otherwise be printed after the code). Nothing is compressed or renamed.
      minify: { compress: false, mangle: false, format: { comments: false } },
    },
  };
}

/** SWC marks a file that imported only types as a module with this statement, and nothing else. */
const EMPTY_EXPORT = 'export { };';

/**
 * Transpiled `code` as a classic script, or an Error naming what would need a module loader.
 * Deterministic: the same input gives the same bytes.
 */
export async function classicScript(swc, code, target) {
  const ast = await swc.parse(code, { syntax: 'ecmascript', target });
  const modular = ast.body.filter((s) => /^(Import|Export)/.test(s.type));
  const emptyExports = modular.filter(
    (s) => s.type === 'ExportNamedDeclaration' && s.specifiers.length === 0 && !s.source,
  );
  if (modular.length > emptyExports.length) {
    const kinds = [...new Set(modular.map((s) => s.type))].join(', ');
    return new Error(`a browser script imports types only and exports nothing (found ${kinds})`);
  }
  // Removed as text: found exactly as often as the syntax tree has it, or the build stops.
  const pieces = code.split(EMPTY_EXPORT);
  if (pieces.length - 1 !== emptyExports.length)
    return new Error(
      `SWC's empty export written otherwise than "${EMPTY_EXPORT}": build-browser.mjs needs a look`,
    );
  const body = pieces.join('');
  return `(() => {\n'use strict';\n${body.trimEnd()}\n})();\n`;
}
