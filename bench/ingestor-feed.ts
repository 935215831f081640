/**
 * Child process for the ingestor bench: a local bybit-protocol venue (v5 public spot) that
 * answers each subscription with a snapshot per topic and then pushes `rate` deltas a second per
 * topic. Like Bybit, the snapshot has as many levels per side as the topic's depth
 * (`orderbook.200.X`: 200; a real capture, ../shared/data/captures BYBIT.jsonl.gz, has 200 levels
 * per side and deltas of 2 levels median, 9 at p90); argv[3] overrides it. Runs apart so its CPU
 * is not counted as the ingestor's.
 */
import { WebSocketServer, type WebSocket } from 'ws';

const rate = Number(process.argv[2] ?? 10);
const levelsOverride = process.argv[3] === undefined ? undefined : Number(process.argv[3]);

// Deterministic pseudo-random stream (no Math.random: the same run sends the same bytes).
let seed = 42;
const rnd = (): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

interface Topic {
  readonly topic: string;
  readonly symbol: string;
  readonly levels: number;
  u: number;
}

function snapshot(t: Topic): string {
  const b: string[][] = [];
  const a: string[][] = [];
  for (let i = 0; i < t.levels; i++) {
    b.push([(1000 - 0.5 - i * 0.01).toFixed(2), (1 + rnd() * 5).toFixed(4)]);
    a.push([(1000 + 0.5 + i * 0.01).toFixed(2), (1 + rnd() * 5).toFixed(4)]);
  }
  t.u = 1;
  return JSON.stringify({
    topic: t.topic,
    type: 'snapshot',
    ts: Date.now(),
    data: { s: t.symbol, b, a, u: t.u, seq: t.u },
    cts: Date.now(),
  });
}

function delta(t: Topic): string {
  // Three changes near the top, bids below and asks above the fixed mid: the book never crosses.
  const level = (side: 1 | -1): string[] => [
    (1000 + side * (0.5 + Math.floor(rnd() * 40) * 0.01)).toFixed(2),
    rnd() < 0.2 ? '0' : (rnd() * 5).toFixed(4),
  ];
  t.u++;
  return JSON.stringify({
    topic: t.topic,
    type: 'delta',
    ts: Date.now(),
    data: { s: t.symbol, b: [level(-1), level(-1)], a: [level(1)], u: t.u, seq: t.u },
    cts: Date.now(),
  });
}

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
const subscribed = new Map<WebSocket, Topic[]>();
wss.on('connection', (socket) => {
  socket.on('close', () => subscribed.delete(socket));
  socket.on('message', (data) => {
    const msg = JSON.parse((data as Buffer).toString('utf8')) as {
      op?: string;
      req_id?: string;
      args?: string[];
    };
    if (msg.op === 'ping')
      return socket.send(JSON.stringify({ success: true, ret_msg: 'pong', op: 'ping', req_id: msg.req_id }));
    if (msg.op !== 'subscribe') return;
    socket.send(
      JSON.stringify({
        success: true,
        ret_msg: 'subscribe',
        conn_id: 'bench',
        req_id: msg.req_id,
        op: 'subscribe',
      }),
    );
    const topics = (msg.args ?? []).map((topic) => {
      const [, depth, symbol] = topic.split('.');
      return { topic, symbol: symbol!, levels: levelsOverride ?? Number(depth), u: 0 };
    });
    subscribed.set(socket, [...(subscribed.get(socket) ?? []), ...topics]);
    for (const t of topics) socket.send(snapshot(t));
  });
});

// 10 ticks a second; each tick sends rate/10 deltas per topic.
setInterval(() => {
  for (const [socket, topics] of subscribed)
    for (let k = 0; k < rate / 10; k++) for (const t of topics) socket.send(delta(t));
}, 100);

wss.on('listening', () => {
  const port = (wss.address() as { port: number }).port;
  process.send?.({ port });
});
