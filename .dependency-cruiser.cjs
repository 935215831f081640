/**
 * The house's dependency rules, checked by `npm run check` (depcruise): apps never import each
 * other, libs never import apps, no import cycles, other libs only through their index.ts, specs
 * never import bench/, each lib depends only on the libs listed in LAYERS, each part of apps/api
 * only on those listed in API_ROOMS, and the pages' browser scripts stand apart (nothing imports
 * them; they import types only).
 */
const LAYERS = {
  // How a failed call is told (its message) and tried again (full-jitter backoff, time and
  // randomness injected): no deps.
  retry: [],
  // Text escaped for the HTML pages the apps build: no deps.
  html: [],
  events: [],
  config: [],
  // The operators' view: structured console logs, the venue summary line, the /metrics port.
  telemetry: ['retry'],
  books: ['events'],
  routing: ['events', 'books'],
  request: ['events', 'routing'],
  // The journal's record format, pure: it never imports libs/request (and so never loads
  // class-validator); its readers are given the stored-request validator by their callers.
  journal: ['routing'],
  // The event log: its port and two adapters (Kafka, the embedded on-disk log).
  'event-log': ['events', 'retry'],
  synth: ['events', 'event-log'],
  // Following the live log: the book caches kept current, the fold of log entries into books and
  // the listings lost to damage (both also used by history, which folds the same entries).
  'live-feed': ['events', 'books', 'event-log', 'retry'],
  // Recordings on disk (JSON lines): read back in order, and fed into a log at recorded speed.
  recordings: ['events', 'event-log', 'config', 'retry'],
  // Past instants: the books as of t (rebuilt backward or folded forward), the time index, the
  // horizon of what the log still holds; reads both the log (through live-feed's fold) and
  // recordings.
  history: ['events', 'books', 'event-log', 'journal', 'live-feed', 'recordings'],
  audit: ['events', 'routing', 'request', 'journal', 'event-log', 'history', 'retry', 'transparency'],
  venues: ['events', 'books', 'event-log', 'telemetry', 'retry'],
  // Recordings of other tools (tardis.dev) read into this project's records.
  import: ['events', 'books', 'retry'],
  // The generated API client stands alone: it is what a consumer of the API would import.
  client: [],
  // Merkle tree, signed notes, checkpoints and receipts: node:crypto only, no other lib, so an
  // outside verifier can be built from it alone.
  transparency: [],
};

/**
 * apps/api floor by floor: what each folder (or leaf file) of apps/api/src may import of the
 * others, so no import runs back up. The edge, built before Nest, knows only the limits. The files
 * that compose the app (api.module, bootstrap, compose, observe, main, start) may import any.
 */
const API_ROOMS = {
  clock: [],
  // What an answer awaits so that a turn's solves run back to back, then its writes.
  'turn-end': [],
  tokens: [],
  limits: [],
  logging: [],
  ingest: [],
  explorer: [],
  // Who signs: the receipt key and the receipt of one answer.
  receipts: ['tokens', 'turn-end'],
  edge: ['limits'],
  route: ['edge', 'clock', 'tokens', 'receipts', 'turn-end'],
  stream: ['edge', 'route', 'limits', 'tokens', 'clock', 'receipts'],
  docs: ['edge', 'stream', 'explorer'],
  health: ['docs', 'clock', 'tokens'],
  market: ['health', 'docs', 'clock', 'tokens'],
  metrics: ['health', 'stream', 'limits'],
  demo: ['clock', 'compose'],
};

const apiRoomRules = Object.entries(API_ROOMS).map(([room, allowed]) => ({
  name: `api-rooms-${room}`,
  comment: `apps/api/src/${room} may import of apps/api only: ${allowed.join(', ') || 'nothing'}`,
  severity: 'error',
  from: { path: `^apps/api/src/${room}(/|\\.ts$)`, pathNot: '\\.spec\\.ts$' },
  to: { path: '^apps/api/src/', pathNot: `^apps/api/src/(${[room, ...allowed].join('|')})(/|\\.ts$)` },
}));

const layerRules = Object.entries(LAYERS).map(([lib, allowed]) => ({
  name: `lib-layers-${lib}`,
  comment: `libs/${lib} may import only: ${allowed.join(', ') || 'no other lib'}`,
  severity: 'error',
  from: { path: `^libs/${lib}/src/`, pathNot: '\\.spec\\.ts$' },
  to: { path: '^libs/([^/]+)/src/', pathNot: [`^libs/(${[lib, ...allowed].join('|')})/src/`] },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-app-to-app',
      comment: 'An app never imports another app: what two apps share belongs in a lib.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/([^/]+)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'no-lib-to-app',
      comment: 'Libs never import apps.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-index-only',
      comment: 'Another lib is imported as @app/<lib>, its index.ts, never a file inside it.',
      severity: 'error',
      from: { path: '^(apps|libs|bench)/([^/]+)/' },
      to: { path: '^libs/([^/]+)/src/(?!index\\.ts$)', pathNot: '^libs/$2/' },
    },
    {
      name: 'no-shipped-to-test',
      comment: 'What is built into dist/ (apps, libs, bench) never imports test code.',
      severity: 'error',
      from: { path: '^(apps|libs|bench)/', pathNot: '\\.spec\\.ts$|^libs/[^/]+/test/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-spec-to-bench',
      comment: 'Specs share helpers through test/support, not through bench/.',
      severity: 'error',
      from: { path: '\\.spec\\.ts$|^test/' },
      to: { path: '^bench/' },
    },
    {
      name: 'browser-scripts-apart',
      comment:
        'A page script (apps/<app>/src/browser/) is built on its own and inlined as text: no other code imports it.',
      severity: 'error',
      from: { pathNot: '^apps/[^/]+/src/browser/' },
      to: { path: '^apps/[^/]+/src/browser/' },
    },
    {
      name: 'browser-scripts-types-only',
      comment: 'A page script runs with no module loader: it imports types only (import type).',
      severity: 'error',
      from: { path: '^apps/[^/]+/src/browser/' },
      to: { dependencyTypesNot: ['type-only'] },
    },
    ...layerRules,
    ...apiRoomRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|coverage)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
