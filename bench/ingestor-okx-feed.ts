/**
 * Child process for the ingestor bench: a local OKX-protocol venue (v5 public `books`) that
 * answers each subscription with a 400-level snapshot per instrument and then pushes `rate`
 * updates a second per instrument, each with its seqId/prevSeqId and the CRC32 of the top 25
 * levels (OKX v5 docs, "Checksum"), so the ingestor's own checks run on every update. Runs apart
 * so its CPU (keeping the books to compute checksums) is not counted as the ingestor's.
 */
import { crc32 } from 'node:zlib';
import { WebSocketServer, type WebSocket } from 'ws';

const rate = Number(process.argv[2] ?? 10);
const LEVELS = 400;

let seed = 42;
const rnd = (): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

/** A decimal as OKX prints it: no trailing zeros (as in the recorded traffic). */
const dec = (fixed: string): string => String(Number(fixed));

/** One side, best first: [price, price as sent, size as sent]. */
type Side = [number, string, string][];

interface Book {
  readonly instId: string;
  readonly bids: Side;
  readonly asks: Side;
  seq: number;
}

/** Set a level (size '0' removes it), keeping the side sorted best first (dir 1 asks, -1 bids). */
function set(side: Side, dir: 1 | -1, price: string, size: string): void {
  const p = Number(price);
  let lo = 0;
  let hi = side.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dir * (side[mid]![0] - p) < 0) lo = mid + 1;
    else hi = mid;
  }
  const found = side[lo] !== undefined && side[lo]![0] === p;
  if (size === '0') {
    if (found) side.splice(lo, 1);
  } else if (found) side[lo]![2] = size;
  else side.splice(lo, 0, [p, price, size]);
}

function checksum(b: Book): number {
  const parts: string[] = [];
  for (let i = 0; i < 25; i++) {
    const bid = b.bids[i];
    const ask = b.asks[i];
    if (bid !== undefined) parts.push(`${bid[1]}:${bid[2]}`);
    if (ask !== undefined) parts.push(`${ask[1]}:${ask[2]}`);
  }
  return crc32(parts.join(':')) | 0;
}

const row = ([p, q]: [string, string]): string[] => [p, q, '0', q === '0' ? '0' : '1'];

function snapshot(b: Book): string {
  for (let i = 0; i < LEVELS; i++) {
    set(b.bids, -1, dec((1000 - 0.5 - i * 0.01).toFixed(2)), dec((1 + rnd() * 5).toFixed(4)));
    set(b.asks, 1, dec((1000 + 0.5 + i * 0.01).toFixed(2)), dec((1 + rnd() * 5).toFixed(4)));
  }
  b.seq = 1;
  return JSON.stringify({
    arg: { channel: 'books', instId: b.instId },
    action: 'snapshot',
    data: [
      {
        asks: b.asks.map((l) => row([l[1], l[2]])),
        bids: b.bids.map((l) => row([l[1], l[2]])),
        ts: String(Date.now()),
        checksum: checksum(b),
        prevSeqId: -1,
        seqId: b.seq,
      },
    ],
  });
}

function update(b: Book): string {
  // Three changes near the top, bids below and asks above the fixed mid: the book never crosses.
  const change = (side: Side, dir: 1 | -1): [string, string] => {
    const price = dec((1000 + dir * (0.5 + Math.floor(rnd() * 40) * 0.01)).toFixed(2));
    const size = rnd() < 0.2 ? '0' : dec((rnd() * 5 + 0.0001).toFixed(4));
    set(side, dir, price, size);
    return [price, size];
  };
  const bids = [change(b.bids, -1), change(b.bids, -1)];
  const asks = [change(b.asks, 1)];
  const prev = b.seq++;
  return JSON.stringify({
    arg: { channel: 'books', instId: b.instId },
    action: 'update',
    data: [
      {
        asks: asks.map(row),
        bids: bids.map(row),
        ts: String(Date.now()),
        checksum: checksum(b),
        prevSeqId: prev,
        seqId: b.seq,
      },
    ],
  });
}

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
const subscribed = new Map<WebSocket, Book[]>();
wss.on('connection', (socket) => {
  socket.on('close', () => subscribed.delete(socket));
  socket.on('message', (data) => {
    const text = (data as Buffer).toString('utf8');
    if (text === 'ping') return socket.send('pong');
    const msg = JSON.parse(text) as { op?: string; args?: { channel: string; instId: string }[] };
    if (msg.op !== 'subscribe') return;
    const books = (msg.args ?? []).map((a) => {
      socket.send(JSON.stringify({ event: 'subscribe', arg: a, connId: 'bench' }));
      return { instId: a.instId, bids: [] as Side, asks: [] as Side, seq: 0 };
    });
    subscribed.set(socket, [...(subscribed.get(socket) ?? []), ...books]);
    for (const b of books) socket.send(snapshot(b));
  });
});

// 10 ticks a second; each tick sends rate/10 updates per instrument.
setInterval(() => {
  for (const [socket, books] of subscribed)
    for (let k = 0; k < rate / 10; k++) for (const b of books) socket.send(update(b));
}, 100);

wss.on('listening', () => {
  const port = (wss.address() as { port: number }).port;
  process.send?.({ port });
});
