import type { Input, RowSink } from './input';

/** Told after each chunk of input; a promise returned is waited for (the writer's backpressure). */
export type OnChunk = () => Promise<void> | undefined;

/** Whether input a's current row goes before b's: earlier local time, then the earlier file. */
function before(a: Input, b: Input): boolean {
  return a.localUs < b.localUs || (a.localUs === b.localUs && a.index < b.index);
}

function siftDown(heap: Input[], i: number): void {
  const n = heap.length;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < n && before(heap[l]!, heap[m]!)) m = l;
    if (r < n && before(heap[r]!, heap[m]!)) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m]!, heap[i]!];
    i = m;
  }
}

/**
 * Hands every row of `inputs` to `sink` in one pass, merged by local time (ties: the earlier file,
 * then line order), with a heap of one current row per file, so memory does not grow with the
 * inputs' length. The file on top keeps delivering without heap work while its rows stay ahead of
 * the runner-up's (with one file, every row). `onChunk` is told after each chunk of input.
 */
export async function mergeInputs(inputs: readonly Input[], sink: RowSink, onChunk: OnChunk): Promise<void> {
  const heap: Input[] = [];
  for (const input of inputs) if (await input.advance()) heap.push(input);
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  while (heap.length > 0) {
    const top = heap[0]!;
    const a = heap[1];
    const b = heap[2];
    const next = a === undefined ? undefined : b === undefined || before(a, b) ? a : b;
    for (;;) {
      top.deliver(sink);
      if (!top.next()) {
        const waiting = onChunk();
        if (waiting !== undefined) await waiting;
        if (!(await top.advance())) {
          const last = heap.pop()!;
          if (heap.length > 0 && last !== top) {
            heap[0] = last;
            siftDown(heap, 0);
          }
          break;
        }
      }
      if (next !== undefined && before(next, top)) {
        siftDown(heap, 0);
        break;
      }
    }
  }
}
