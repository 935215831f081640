import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { feedReplay, RecordingReader, replayFiles } from '@app/recordings';
import { EmbeddedLog, logSink } from '@app/event-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReplayCli } from '../replay/support/run-replay';
import { importCli, readRecording, ROOT } from './support/cli';
import { l2Csv, readMessages, SYMBOLS, TWO_VENUES } from './support/tardis-data';

const tmp = mkdtempSync(join(tmpdir(), 'tardis-consumers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const symbolsFile = join(tmp, 'symbols.json');
writeFileSync(symbolsFile, JSON.stringify(SYMBOLS));
const out = join(tmp, 'imported');

beforeAll(() => {
  const r = importCli(
    ['--format', 'tardis-normalized', '--out', out, '--symbols', symbolsFile, TWO_VENUES],
    tmp,
  );
  expect(r.code, r.err.join('\n')).toBe(0);
});

describe('what replay import writes, every reader of recordings takes as it is', () => {
  it('--replay reads it, the event log takes it, and replay record gives the same records back', async () => {
    const imported = readRecording(join(out, 'tardis.jsonl'));
    const skipped: unknown[] = [];
    const reader = new RecordingReader(replayFiles(out), (s) => skipped.push(s));
    let read = 0;
    for (let chunk = reader.take(1000); chunk.length > 0; chunk = reader.take(1000)) read += chunk.length;
    reader.close();
    expect(skipped).toEqual([]);
    expect(read).toBe(imported.length);

    const dataDir = join(tmp, 'log');
    const log = new EmbeddedLog({ dataDir, fsync: 'never' });
    const fed = await feedReplay({
      path: out,
      speed: 'max',
      sink: logSink(log),
      onFed: () => undefined,
      onSkip: (s) => expect.fail(s.problem),
    });
    await log.close();
    expect(fed.records).toBe(imported.length);
    const recorded = join(tmp, 'recorded');
    const r = await runReplayCli(['record', '--out', recorded, '--data-dir', dataDir], { cwd: '/' });
    expect(r.code, r.err.join('\n')).toBe(0);
    const back = readdirSync(recorded).flatMap((f) => readRecording(join(recorded, f)));
    const text = (records: readonly object[]): string[] => records.map((x) => JSON.stringify(x)).sort();
    expect(text(back)).toEqual(text(imported));
  });

  it('--markets fills the fees and order rules these datasets lack; a bad entry is refused by name', () => {
    const markets = join(tmp, 'markets.json');
    writeFileSync(
      markets,
      JSON.stringify({
        bitmex: { 'BTC/USD': { takerFeeRate: 0.00075, amountStep: 1, minAmount: 1 } },
        deribit: { '*': { takerFeeRate: 0.0005, maxAmount: 1e8 } },
      }),
    );
    const r = importCli(
      [
        '--format',
        'tardis-normalized',
        '--out',
        'm',
        '--symbols',
        symbolsFile,
        '--markets',
        markets,
        TWO_VENUES,
      ],
      tmp,
    );
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.err[0]).toBe('markets: all 2 markets have their fee and order rules from --markets');
    const listed = readRecording(join(tmp, 'm', 'tardis.jsonl')).filter((x) => x.type === 'market');
    expect(listed).toEqual([
      expect.objectContaining({ exchangeId: 'deribit', takerFeeRate: 0.0005, maxAmount: 1e8 }),
      expect.objectContaining({ exchangeId: 'bitmex', takerFeeRate: 0.00075, amountStep: 1, minAmount: 1 }),
    ]);
    writeFileSync(markets, JSON.stringify({ 'binance-us': { 'BTC/USD': { takerFeeRate: 0.001 } } }));
    expect(
      importCli(['--format', 'tardis-normalized', '--out', 'm2', '--markets', markets, TWO_VENUES], tmp),
    ).toEqual({
      code: 2,
      err: [
        `--markets ${markets}: 'binance-us' is a tardis.dev exchange id: key its markets by the venue id 'binanceus'`,
      ],
    });
    writeFileSync(markets, JSON.stringify({ bitmex: { 'BTC/USD': { takerFeeRate: 1.5 } } }));
    expect(
      importCli(['--format', 'tardis-normalized', '--out', 'm2', '--markets', markets, TWO_VENUES], tmp).err,
    ).toEqual([
      `--markets ${markets}: bitmex.BTC/USD.takerFeeRate must be null or a fraction in [0, 1), got 1.5`,
    ]);
    expect(existsSync(join(tmp, 'm2', 'tardis.jsonl'))).toBe(false);
  });

  it('bad rows: named on stderr and in <name>.problems.txt, counted; --strict stops at the first (exit 1, nothing written)', () => {
    const header = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
    const file = join(tmp, 'bad.csv');
    writeFileSync(
      file,
      [
        header,
        'binance,BTCUSDT,1709251200000000,1709251200000000,true,bid,100,1',
        'binance,BTCUSDT,1709251200000000,1709251200000000,true,ask,101,1',
        'binance,BTCUSDT,1709251200100000,1709251200100000,false,bid,99,-1',
        'binance,BTCUSDT,1709251200200000,1709251200200000,false,bid,99,2',
      ].join('\n'),
    );
    const ok = importCli(['--format', 'tardis-csv', '--out', 'bad', file], tmp);
    expect(ok.code, ok.err.join('\n')).toBe(0);
    const problem = `${file}:4: negative: amount '-1' must be a finite number >= 0`;
    expect(ok.err[0]).toBe(problem);
    expect(ok.err.at(-1)).toBe('bad rows: negative 1');
    expect(readdirSync(join(tmp, 'bad')).sort()).toEqual(['tardis.jsonl', 'tardis.problems.txt']);
    expect(readRecording(join(tmp, 'bad', 'tardis.jsonl')).filter((x) => x.type === 'book')).toHaveLength(2);
    const strict = importCli(['--format', 'tardis-csv', '--out', 'strict', '--strict', file], tmp);
    expect(strict).toEqual({
      code: 1,
      err: [problem, 'import stopped at the first bad row (--strict): nothing written'],
    });
    expect(readdirSync(join(tmp, 'strict'))).toEqual([]);
    // A day without data: tardis.dev serves an empty file.
    const empty = join(tmp, 'empty.csv.gz');
    writeFileSync(empty, '');
    expect(importCli(['--format', 'tardis-csv', '--out', 'none', empty], tmp)).toEqual({
      code: 3,
      err: ['import: no book data in 1 file(s): nothing written'],
    });
  });

  it('an import interrupted (SIGINT) leaves nothing behind: no recording, no partial file', async () => {
    // A named pipe as input: the import waits for the rest of it, and is stopped while it waits.
    const fifo = join(tmp, 'slow.csv');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const dir = join(tmp, 'cut');
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bin/route-service.mjs'),
        'replay',
        'import',
        '--format',
        'tardis-csv',
        '--out',
        dir,
        '--symbols',
        symbolsFile,
        fifo,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    // Listened for from the start: an import that ends early is a failure here, not a hang.
    const exited = new Promise<string>((r) => child.once('exit', (c, s) => r(`${c ?? s}`)));
    const writer = createWriteStream(fifo);
    // The reader goes away with the import: the rest of the write fails, as it should.
    writer.on('error', () => undefined);
    const csv = l2Csv(readMessages(TWO_VENUES), 'bitmex');
    writer.write(csv.slice(0, 200_000));
    // The import has started once its temporary file is there; it then waits for the rest.
    for (
      let i = 0;
      i < 200 && !(existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.partial')));
      i++
    )
      await new Promise((r) => setTimeout(r, 25));
    expect(readdirSync(dir).some((f) => f.endsWith('.partial'))).toBe(true);
    child.kill('SIGINT');
    const code = await exited;
    writer.destroy();
    // Ended by the signal itself (what a shell reports as 130).
    expect(code, err).toBe('SIGINT');
    expect(err).toContain('import interrupted: nothing written');
    expect(readdirSync(dir)).toEqual([]);
  });
});
