/**
 * Writer process of the concurrent append+fold benchmark (bench/log-concurrent.ts): the
 * ingestor's side. Generates its records first, says `ready`, waits for `go`, appends them all as
 * fast as it can in batches, then reports how long the appends took.
 *   argv: dataDir records levels batch
 */
import { EmbeddedLog } from '@app/event-log';
import { bookRecords, toEntries } from '@app/synth';
import { APPEND_FOLD_SPEC } from './log-specs';

interface Go {
  readonly type: 'go';
}

const [dataDir, recordsArg, levelsArg, batchArg] = process.argv.slice(2);
const records = Number(recordsArg);
const levels = Number(levelsArg);
const batch = Number(batchArg);
if (dataDir === undefined || !(records > 0) || !(levels > 0) || !(batch > 0) || process.send === undefined) {
  console.error('usage (forked with IPC): log-writer-child <dataDir> <records> <levels> <batch>');
  process.exit(2);
}
const send = (m: object): void => void process.send?.(m);

const entries = toEntries([...bookRecords({ ...APPEND_FOLD_SPEC, bookRecords: records, levels })]);
const log = new EmbeddedLog({ dataDir, fsync: 'interval' });
process.once('message', (m: Go) => {
  if (m.type !== 'go') return;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < entries.length; i += batch) log.appendSync('books', entries.slice(i, i + batch));
  const appendS = Number(process.hrtime.bigint() - t0) / 1e9;
  void log.close().then(() => {
    send({ type: 'done', appendS });
    process.disconnect();
  });
});
send({ type: 'ready' });
