import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteStreamV2, STREAM_V2_PROTOCOL, type SendingWebSocket, type V2Quote } from '@app/client';

// RouteStreamV2's seq check over a real socket. The real server never skips a seq, so a small ws
// server here plays one that loses frames: per subscription it sends the scripted [streamId, seq]
// quotes, in order, after the welcome and the subscribed answer.
const SCRIPT: Record<string, [string, number][]> = {
  // Contiguous: no gap.
  steady: [
    ['s1', 1],
    ['s1', 2],
    ['s1', 3],
  ],
  // seq 3 lost; then a new stream (a resume) starts again at 1, which is no gap; then 3 where 2 was due.
  lossy: [
    ['s2', 1],
    ['s2', 2],
    ['s2', 4],
    ['s2', 5],
    ['s3', 1],
    ['s3', 3],
  ],
};
let wss: WebSocketServer;
let url: string;

beforeAll(async () => {
  wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: (p) => p.values().next().value ?? false,
  });
  await new Promise((r) => wss.once('listening', r));
  url = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  wss.on('connection', (ws, req) => {
    expect(req.url).toBe('/stream');
    expect(ws.protocol).toBe(STREAM_V2_PROTOCOL);
    ws.send(JSON.stringify({ type: 'welcome', protocol: STREAM_V2_PROTOCOL, heartbeatMs: 15_000 }));
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as { type: string; id: string };
      if (m.type !== 'subscribe') return;
      const script = SCRIPT[m.id] ?? [];
      ws.send(JSON.stringify({ type: 'subscribed', id: m.id, streamId: script[0]?.[0], resume: null }));
      for (const [streamId, seq] of script)
        ws.send(JSON.stringify({ type: 'quote', id: m.id, streamId, seq, tick: seq, ticksSkipped: 0 }));
    });
  });
});
afterAll(() => new Promise((r) => wss.close(r)));

describe('RouteStreamV2 onGap', () => {
  it('reports a seq that is not the one after the last (id, expected, got), and nothing on contiguous seqs', async () => {
    const quotes: [string, string, number][] = [];
    const gaps: [string, number, number][] = [];
    const stream = new RouteStreamV2(
      url,
      {
        onQuote: (q: V2Quote) => quotes.push([q.id, q.streamId, q.seq]),
        onGap: (id, expected, got) => gaps.push([id, expected, got]),
      },
      { connect: (u, protocol) => new WebSocket(u, protocol) as unknown as SendingWebSocket },
    );
    try {
      stream.subscribe('steady', { from: 'USDT', to: 'BTC', amountIn: 1 });
      await expect.poll(() => quotes.length, { timeout: 5000 }).toBe(3);
      expect(gaps).toEqual([]);
      stream.subscribe('lossy', { from: 'USDT', to: 'ETH', amountIn: 1 });
      await expect.poll(() => quotes.length, { timeout: 5000 }).toBe(9);
      expect(gaps).toEqual([
        ['lossy', 3, 4],
        ['lossy', 2, 3],
      ]);
      // A quote after a gap is still delivered: the check reports, it does not drop.
      expect(quotes.slice(3)).toEqual(SCRIPT.lossy!.map(([streamId, seq]) => ['lossy', streamId, seq]));
    } finally {
      stream.close();
    }
  });
});
