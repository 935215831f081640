/**
 * The thread of one incremental_book_L2 file (threaded-input.ts starts it): reads and inflates the
 * file, parses its rows with the same L2Input the main thread would use, and sends them as
 * batches (l2-batch.ts), at most AHEAD batches ahead of the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '@app/retry';
import { fileChunks } from './files';
import { AHEAD, BatchRecorder, type FromL2Thread, type L2ThreadData, type ToL2Thread } from './l2-batch';
import { L2_HEADER, L2Input } from './l2-input';
import { LineReader } from './line-reader';
import { firstLine } from './open-input';

async function main(port: NonNullable<typeof parentPort>, data: L2ThreadData): Promise<void> {
  const post = (m: FromL2Thread): void => port.postMessage(m);
  let bytesRead = 0;
  const lines = new LineReader(fileChunks(data.path, (n) => (bytesRead = n)));
  let first: string | null;
  try {
    first = await firstLine(lines, 'tardis-csv', data.name);
  } catch (e) {
    post({ t: 'refused', message: errorMessage(e) });
    return;
  }
  post({ t: 'head', first });
  if (first !== L2_HEADER) {
    await lines.close();
    return;
  }
  const free = Array.from({ length: AHEAD }, (_, i) => i);
  let wake: (() => void) | null = null;
  const onMore = (m: ToL2Thread): void => {
    free.push(...m.slots);
    wake?.();
  };
  port.on('message', onMore);
  const recorder = new BatchRecorder();
  const acquire = async (): Promise<number> => {
    while (free.length === 0) await new Promise<void>((r) => (wake = r));
    wake = null;
    return free.shift()!;
  };
  recorder.use(await acquire());
  const send = async (): Promise<void> => {
    post(recorder.take(bytesRead));
    recorder.use(await acquire());
  };
  const input = new L2Input(data.index, data.name, lines, { problems: recorder.problems, books: recorder });
  while (await input.advance()) {
    do input.deliver(recorder);
    while (input.next());
    if (recorder.full) await send();
  }
  if (!recorder.empty) post(recorder.take(bytesRead));
  post({ t: 'end', rows: input.rows });
  port.off('message', onMore);
}

if (parentPort !== null) void main(parentPort, workerData as L2ThreadData);
