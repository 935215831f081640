#!/usr/bin/env node
/**
 * `npm run docs:venues`: write the venue rules table (libs/venues venueRulesTable(), from the
 * built dist/) into docs/venues.md under "## Venue rules", replacing the table there, and let
 * prettier align it. test/venues/venue-quirks.int.spec.ts checks the two agree.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { venueRulesTable } = require(resolve(ROOT, 'dist/libs/venues/src/index.js'));
const file = resolve(ROOT, 'docs/venues.md');
const lines = readFileSync(file, 'utf8').split('\n');
const heading = lines.indexOf('## Venue rules');
if (heading < 0) throw new Error('docs/venues.md has no "## Venue rules" section');
const start = lines.findIndex((l, i) => i > heading && l.startsWith('|'));
let end = start;
while (end < lines.length && lines[end].startsWith('|')) end++;
lines.splice(start, end - start, ...venueRulesTable().split('\n'));
writeFileSync(file, lines.join('\n'));
execFileSync(resolve(ROOT, 'node_modules/.bin/prettier'), ['--write', file], { stdio: 'ignore' });
