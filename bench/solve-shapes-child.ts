import { kitOf, shapesRowsOf } from './solve-shapes';

// `node dist/bench/solve-shapes-child.js <checkout> [who]`: the `solve` scenario's shapes rows of the
// solver built in <checkout>, over books of that build's own cache, timed in this process alone
// (solve-shapes.ts says why), printed as one JSON line.

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write('usage: node dist/bench/solve-shapes-child.js <built checkout> [label]\n');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(shapesRowsOf(kitOf(dir), process.argv[3] ?? ''))}\n`);
