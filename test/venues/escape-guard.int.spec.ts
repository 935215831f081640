import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@test/support';

const ROOT = resolve(__dirname, '../..');

/**
 * A process running the built Ingestor (one venue pointed at a closed port, so its guard is
 * installed) that rejects a promise nobody handles once the venue runs.
 */
function runWithRejection(reason: string) {
  const script = `
    const { Ingestor, ingestorOptions, parseVenuesConfig, watchOrderBookIds } = require('./dist/libs/venues/src/index.js');
    const { defaultOf } = require('./dist/libs/config/src/index.js');
    const venuesConfig = parseVenuesConfig({ venues: { bitfinex: { ccxt: { urls: { api: { ws: { public: 'ws://127.0.0.1:9/ws/2' } } } } } } }, 'test', watchOrderBookIds());
    const logger = { info() {}, warn(m, f) { if (m.includes('escaped')) console.log('CONTAINED ' + f.exchangeId); }, error() {}, debug() {} };
    const writer = { bufferBytes: defaultOf('WRITE_BUFFER_BYTES'), listingRepublishMs: defaultOf('LISTING_REPUBLISH_MS') };
    const ingestor = new Ingestor(ingestorOptions({ sink: { write: async () => {} }, venuesConfig, logger, ...writer }));
    ingestor.start();
    setTimeout(() => { Promise.reject(${reason}); }, 300);
    setTimeout(() => { console.log('ALIVE'); process.exit(0); }, 1500);
  `;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d.toString()));
  child.stderr.on('data', (d: Buffer) => out.push(d.toString()));
  let code: number | null | undefined;
  child.on('exit', (c) => (code = c));
  return { out, code: () => code };
}

describe('the last line of defence (a real process, the built ingestor)', () => {
  it('an escaped rejection that names a running venue is contained: the process lives on', async () => {
    const run = runWithRejection(`new Error('bitfinex a rejection nobody handled')`);
    await waitFor('the process to exit', () => run.code() !== undefined, 20_000);
    expect(run.out.join('')).toContain('CONTAINED bitfinex');
    expect(run.out.join('')).toContain('ALIVE');
    expect(run.code()).toBe(0);
  });

  it('a rejection no venue can be blamed for still ends the process (a real bug is not swallowed)', async () => {
    const run = runWithRejection(`new TypeError('a real bug')`);
    await waitFor('the process to exit', () => run.code() !== undefined, 20_000);
    expect(run.out.join('')).toContain('not attributable to any venue');
    expect(run.out.join('')).toContain('a real bug');
    expect(run.out.join('')).not.toContain('ALIVE');
    expect(run.code()).toBe(1);
  });
});
