/**
 * Worker thread of the API bench: opens the stream subscribers and records, per frame, when it
 * arrived and when the server computed it. Kept off the server's thread so the clients do not
 * compete with the event loop being measured.
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

interface Input {
  readonly wsUrl: string;
  readonly queries: readonly string[];
  readonly perQuery: number;
}

const { wsUrl, queries, perQuery } = workerData as Input;
/** Per subscriber: [arrivedAtMs, calculatedAtMs] of each frame. */
const frames: [number, number][][] = [];
const sockets: WebSocket[] = [];

async function open(): Promise<void> {
  const pending: Promise<void>[] = [];
  for (let q = 0; q < queries.length; q++) {
    for (let i = 0; i < perQuery; i++) {
      const log: [number, number][] = [];
      frames.push(log);
      const ws = new WebSocket(`${wsUrl}/stream/route?${queries[q]}`);
      sockets.push(ws);
      pending.push(
        new Promise((resolve, reject) => {
          ws.once('message', () => resolve());
          ws.once('error', reject);
        }),
      );
      ws.on('message', (data: WebSocket.RawData) => {
        // calculatedAt is the second field: read it without parsing the whole frame.
        const head = (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)).toString(
          'utf8',
          0,
          200,
        );
        const m = /"calculatedAt":(\d+)/.exec(head);
        log.push([Date.now(), m === null ? 0 : Number(m[1])]);
      });
    }
  }
  await Promise.all(pending);
}

parentPort!.on('message', (msg: string) => {
  if (msg === 'report') {
    parentPort!.postMessage(frames);
    for (const ws of sockets) ws.terminate();
  }
});

open().then(
  () => parentPort!.postMessage('open'),
  (e: unknown) => parentPort!.postMessage(`error: ${String(e)}`),
);
