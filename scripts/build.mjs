#!/usr/bin/env node
/**
 * `npm run build`: compile the shipped TypeScript (tsconfig.build.json's include/exclude) to dist/
 * with SWC, one file at a time, and only the files whose source changed since the last build; JSON
 * files beside the sources (data they import) are copied. The pages' browser scripts
 * (tsconfig.browser.json's include) go to dist/ beside them as classic scripts (./build-browser.mjs).
 *
 * Why SWC and not tsc: tsc type-checks the whole program on every build (11 s cold, 3.5 s with
 * nothing changed, most of it reading ccxt's typings); SWC transpiles a file in about a millisecond,
 * emits the decorator metadata Nest's dependency injection reads (esbuild does not), and rewrites
 * the @app/* path aliases. Type-checking stays with tsc in `npm run check` and `npm test`, and
 * `isolatedModules` in tsconfig.json makes tsc reject what a per-file compiler could get wrong.
 *
 * A per-file transpile depends only on that file and the options, so the staleness check is a stat
 * per source against dist/.build-manifest.json (a content hash settles touched-but-unchanged files);
 * with nothing to do it takes a few milliseconds and never loads SWC. Options:
 *   --quiet    say nothing unless something was compiled
 *   --clean    empty dist/ first and compile everything
 *   --prepare  (the install hook) when SWC is not installed (npm ci --omit=dev), warn and exit 0
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserSwcOptions, classicScript } from './build-browser.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Exit status when a rebuild is due but SWC is not installed (dev dependencies omitted). */
export const NO_COMPILER = 3;

/**
 * What a build would do, without loading SWC: the sources (tsconfig.build.json), the ones to
 * compile, the outputs whose source is gone, and the manifest to write afterwards.
 */
export function plan({ clean = false } = {}) {
  const base = readJson('tsconfig.json');
  const build = readJson('tsconfig.build.json');
  const co = { ...base.compilerOptions, ...build.compilerOptions };
  const out = resolve(ROOT, co.outDir ?? 'dist');
  const options = swcOptions(co);
  const browser = readJson('tsconfig.browser.json');
  const browserOptions = browserSwcOptions(browser.compilerOptions);
  // A change of options, of these scripts or of SWC's version invalidates every output.
  const rules = [import.meta.url, new URL('./build-browser.mjs', import.meta.url)]
    .map((u) => readFileSync(fileURLToPath(u), 'utf8'))
    .join('');
  const fingerprint = sha1(JSON.stringify([options, browserOptions]) + rules + swcVersion());
  const manifestPath = join(out, '.build-manifest.json');
  const outPath = (rel) =>
    join(out, relative(resolve(ROOT, co.rootDir ?? '.'), join(ROOT, rel))).replace(/\.ts$/, '.js');

  const browserSources = new Set(listSources(browser.include, browser.exclude ?? [], false));
  const sources = [...listSources(build.include, build.exclude ?? []), ...browserSources].sort();
  const manifest = clean ? null : readManifest(manifestPath);
  const files = manifest?.fingerprint === fingerprint ? manifest.files : {};
  const next = {};
  const todo = [];
  for (const rel of sources) {
    const st = statSync(join(ROOT, rel));
    const prev = files[rel];
    const js = outPath(rel);
    if (prev !== undefined && prev.mtimeMs === st.mtimeMs && prev.size === st.size && existsSync(js)) {
      next[rel] = prev;
      continue;
    }
    const code = readFileSync(join(ROOT, rel), 'utf8');
    const hash = sha1(code);
    next[rel] = { mtimeMs: st.mtimeMs, size: st.size, hash };
    if (prev?.hash !== hash || !existsSync(js))
      todo.push({ rel, code, out: js, browser: browserSources.has(rel) });
  }
  const gone = Object.keys(files)
    .filter((rel) => next[rel] === undefined)
    .map(outPath);
  const manifestChanged = JSON.stringify(files) !== JSON.stringify(next);
  return {
    sources,
    todo,
    gone,
    options,
    browserOptions,
    out,
    manifestPath,
    manifestChanged,
    fingerprint,
    files: next,
  };
}

/** True when dist/ matches the sources (a stat per file; SWC is not loaded). */
export function isFresh() {
  const p = plan();
  return p.todo.length === 0 && p.gone.length === 0 && !p.manifestChanged;
}

/** Compile what `plan` found stale, remove orphaned outputs, record the manifest. */
export async function build({ clean = false, quiet = false, prepare = false } = {}) {
  const t0 = performance.now();
  const p = plan({ clean });
  if (clean) rmSync(p.out, { recursive: true, force: true });
  // Outputs whose source is gone would still be required by a stale import or a test: remove them.
  for (const js of p.gone) for (const f of [js, `${js}.map`]) rmSync(f, { force: true });
  if (p.todo.length > 0) await compile(p.todo, p.options, p.browserOptions, prepare);
  if (p.todo.length > 0 || p.gone.length > 0 || p.manifestChanged) {
    mkdirSync(p.out, { recursive: true });
    writeAtomic(p.manifestPath, JSON.stringify({ fingerprint: p.fingerprint, files: p.files }));
  }
  if (!quiet || p.todo.length > 0 || p.gone.length > 0) {
    const ms = Math.round(performance.now() - t0);
    const what = p.todo.length === 0 ? 'up to date' : `${p.todo.length} compiled`;
    const removed = p.gone.length > 0 ? `, ${p.gone.length} removed` : '';
    process.stderr.write(`build: ${p.sources.length} files, ${what}${removed} (${ms} ms)\n`);
  }
}

async function compile(todo, nodeOptions, browserOptions, prepare) {
  const swc = loadSwc(prepare);
  const fail = (rel, e) => {
    process.stderr.write(`build: ${rel}: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  };
  await Promise.all(
    todo.map(async ({ rel, code, out, browser }) => {
      if (rel.endsWith('.json')) {
        mkdirSync(dirname(out), { recursive: true });
        writeAtomic(out, code);
        return;
      }
      const src = join(ROOT, rel);
      const sourceFileName = relative(dirname(out), src).split(sep).join('/');
      const options = browser ? browserOptions : nodeOptions;
      let result;
      try {
        result = await swc.transform(code, { ...options, filename: src, sourceFileName });
      } catch (e) {
        fail(rel, e);
      }
      mkdirSync(dirname(out), { recursive: true });
      if (browser) {
        const script = await classicScript(swc, result.code, options.jsc.target);
        if (script instanceof Error) fail(rel, script);
        writeAtomic(out, script);
        return;
      }
      const map = options.sourceMaps ? `\n//# sourceMappingURL=${basename(out)}.map\n` : '';
      writeAtomic(out, result.code.trimEnd() + map);
      if (options.sourceMaps) writeAtomic(`${out}.map`, result.map);
    }),
  );
}

/** SWC settings equivalent to tsc's emit under the project's compilerOptions. */
function swcOptions(co) {
  return {
    swcrc: false,
    configFile: false,
    sourceMaps: co.sourceMap === true,
    inlineSourcesContent: false,
    module: { type: 'commonjs' },
    jsc: {
      parser: { syntax: 'typescript', decorators: co.experimentalDecorators === true },
      target: String(co.target ?? 'es2022').toLowerCase(),
      keepClassNames: true,
      baseUrl: resolve(ROOT, co.baseUrl ?? '.'),
      paths: co.paths ?? {},
      transform: {
        legacyDecorator: co.experimentalDecorators === true,
        decoratorMetadata: co.emitDecoratorMetadata === true,
        // tsc's default for targets from ES2022 on: class fields are defined, not assigned.
        useDefineForClassFields: co.useDefineForClassFields ?? true,
      },
    },
  };
}

/** Relative paths (with /) of the .ts files matched by include and not by exclude, sorted. */
function listSources(include, exclude, json = true) {
  // JSON data sits where the sources are: the include globs with .json for .ts.
  const inc = [...include, ...(json ? include.map((g) => g.replace(/\.ts$/, '.json')) : [])].map(globRegex);
  const exc = exclude.map(globRegex);
  const tops = [...new Set(include.map((p) => p.split('/')[0]))];
  const found = [];
  const walk = (dir) => {
    for (const d of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${d.name}`;
      if (d.isDirectory()) {
        if (!exc.some((r) => r.test(rel))) walk(rel);
      } else if (isSource(rel) && inc.some((r) => r.test(rel))) {
        if (!exc.some((r) => r.test(rel))) found.push(rel);
      }
    }
  };
  for (const top of tops) if (existsSync(join(ROOT, top))) walk(top);
  return found.sort();
}

/** TypeScript to compile, and JSON data a source imports (resolveJsonModule), copied as it is. */
function isSource(rel) {
  return (rel.endsWith('.ts') && !rel.endsWith('.d.ts')) || rel.endsWith('.json');
}

/** tsconfig's globs: `**` any directories, `*` within a name; a plain name also means what is under it. */
function globRegex(pattern) {
  const body = pattern
    .replace(/\/$/, '')
    .split('/')
    .map((part) =>
      part === '**' ? '\u0000' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'),
    )
    .join('/')
    .replace(/\u0000\//g, '(?:[^/]+/)*')
    .replace(/\/\u0000$/, '(?:/.*)?')
    .replace(/\u0000/g, '.*');
  return new RegExp(`^${body}(?:/.*)?$`);
}

function loadSwc(prepare) {
  try {
    return createRequire(join(ROOT, 'package.json'))('@swc/core');
  } catch {
    const msg = 'build: @swc/core is not installed (a production install?): run npm install to build dist/';
    process.stderr.write(`${msg}\n`);
    process.exit(prepare ? 0 : NO_COMPILER);
  }
}

function swcVersion() {
  try {
    return readJson('node_modules/@swc/core/package.json').version;
  } catch {
    return 'none';
  }
}

function readManifest(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** tsconfig files here are plain JSON (no comments), so JSON.parse reads them. */
function readJson(rel) {
  return JSON.parse(readFileSync(join(ROOT, rel), 'utf8'));
}

function sha1(text) {
  return createHash('sha1').update(text).digest('hex');
}

/** Write through a temporary file and a rename: a concurrent run never reads half a file. */
function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = new Set(process.argv.slice(2));
  await build({ clean: args.has('--clean'), quiet: args.has('--quiet'), prepare: args.has('--prepare') });
}
