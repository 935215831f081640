import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';
import { whileBystanderAsks } from './support/bystander';
import { assertDocumentedClose, assertDocumentedFrame } from '../api/support/contract';
import { spawnServer, type SpawnedServer } from './support/server';
import { closeCode, encodeFrame, openRawStream, textFrames, type ClientFrame } from './support/ws-raw';

// The stream takes no client messages (issue 9): any data frame gets the error frame and close
// 1008, a frame over 1 KiB is refused from its header, malformed frames get the error frame and
// 1002; nothing a client sends is parsed, and the server's memory does not grow with it.
const MAX_MESSAGE = 1024;
const QUERY = 'from=USDT&to=BTC&amountIn=1&bridges=';
const NO_MESSAGES = {
  error: 'this stream takes no client messages; the connection is closed',
  code: 1008,
  reason: 'client messages are not accepted',
};
let s: SpawnedServer;
beforeAll(async () => {
  // Each property run opens a stream: caps high enough that closing ones never get in the way.
  s = await spawnServer({ STREAM_MAX_PER_IP: '1000', CONNECTIONS_MAX_PER_IP: '2000' });
});
afterAll(() => s.stop());

/** A real ws client: the frames it got (parsed) and how the server closed. */
async function wsClient(query = QUERY): Promise<{
  ws: WebSocket;
  frames: unknown[];
  closed: Promise<{ code: number; reason: string }>;
}> {
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/stream/route?${query}`);
  const frames: unknown[] = [];
  // Every frame and the server's close are checked against the AsyncAPI document.
  ws.on('message', (d: Buffer) => {
    const frame: unknown = JSON.parse(d.toString());
    assertDocumentedFrame(frame);
    frames.push(frame);
  });
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((r) =>
    ws.on('close', (code, reason) => {
      const error = frames.at(-1) as { error?: unknown } | undefined;
      if (error?.error !== undefined) assertDocumentedClose(code, reason.toString(), error);
      r({ code, reason: reason.toString() });
    }),
  );
  await new Promise<void>((r) => {
    ws.once('open', () => r());
    ws.once('close', () => r());
  });
  return { ws, frames, closed };
}

describe('client messages', () => {
  it('a JSON message of the shape Nest would dispatch, a binary one and one over the cap: error frame, close 1008', async () => {
    for (const send of [
      JSON.stringify({ event: 'route', data: { from: 'ETH' } }),
      Buffer.from([1, 2, 3]),
      'x'.repeat(MAX_MESSAGE + 1),
    ]) {
      const c = await wsClient();
      await waitFor('the first route frame', () => c.frames.length > 0);
      c.ws.send(send);
      expect(await c.closed).toEqual({ code: 1008, reason: NO_MESSAGES.reason });
      expect(c.frames.at(-1)).toEqual(NO_MESSAGES);
    }
  });

  it('a ping is answered and the stream stays open', async () => {
    const c = await wsClient();
    const pong = new Promise((r) => c.ws.once('pong', r));
    c.ws.ping('hello');
    await pong;
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
    await c.closed;
  });

  it('a 95 MB message is refused from its header: RSS stays flat, others answered', async () => {
    const rssBefore = s.rssKiB();
    let maxRss = 0;
    await whileBystanderAsks(s.port, async () => {
      const raw = await openRawStream(s.port, QUERY);
      const announced = 95 * 1024 * 1024;
      // A binary frame announcing 95 MB, then as much of it as the server will take in 2 s.
      raw.socket.write(
        Buffer.from([0x82, 0xff, 0, 0, 0, 0, announced >>> 24, (announced >> 16) & 255, 0, 0, 1, 2, 3, 4]),
      );
      const chunk = Buffer.alloc(1 << 20, 0x5b);
      const until = performance.now() + 2000;
      let written = 0;
      while (performance.now() < until && !raw.socket.destroyed && written < announced) {
        if (!raw.socket.write(chunk)) await new Promise((r) => setTimeout(r, 5));
        written += chunk.length;
        maxRss = Math.max(maxRss, s.rssKiB());
      }
      await raw.closed;
      expect(closeCode(raw.frames())).toBe(1008);
      expect(textFrames(raw.frames()).at(-1)).toEqual(NO_MESSAGES);
    });
    expect(maxRss - rssBefore).toBeLessThan(32 * 1024);
  });
});

describe('parameters', () => {
  it('prototype and unknown names are refused like GET /route refuses them', async () => {
    for (const [query, error] of [
      [`${QUERY}&__proto__=1`, "unknown parameter '__proto__'"],
      [`${QUERY}&constructor=1`, "unknown parameter 'constructor'"],
      [`${QUERY}&exchange=binance`, "unknown parameter 'exchange'"],
      [`from=USDT&to=BTC&amountIn=${'1'.repeat(300)}x`, /^amountIn is longer than 256 characters$/],
    ] as const) {
      const c = await wsClient(query);
      expect(await c.closed).toEqual({ code: 1008, reason: 'invalid request' });
      expect(c.frames).toEqual([
        { error: expect.stringMatching(error), code: 1008, reason: 'invalid request' },
      ]);
    }
  });
});

/** Any frame a client could send, valid or not. */
const anyFrame: fc.Arbitrary<ClientFrame> = fc.record({
  fin: fc.boolean(),
  rsv: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 7 })),
  opcode: fc.constantFrom(0, 1, 2, 3, 7, 8, 9, 10, 11, 15),
  masked: fc.oneof(fc.constant(true), fc.boolean()),
  payload: fc.uint8Array({ maxLength: 300 }),
});
/** A well-formed close from the client: code 3000, no reason. */
const ownClose: ClientFrame = {
  fin: true,
  rsv: 0,
  opcode: 8,
  masked: true,
  payload: Uint8Array.from([0x0b, 0xb8]),
};
/** A well-formed data message (text or binary, possibly fragmented), up to twice the cap. */
const dataMessage: fc.Arbitrary<ClientFrame[]> = fc
  .tuple(fc.constantFrom(1, 2), fc.uint8Array({ maxLength: 2 * MAX_MESSAGE }), fc.integer({ min: 1, max: 3 }))
  .map(([opcode, payload, parts]) => {
    const size = Math.ceil(payload.length / parts) || 1;
    const frames: ClientFrame[] = [];
    for (let at = 0, i = 0; i === 0 || at < payload.length; at += size, i++)
      frames.push({
        fin: at + size >= payload.length,
        rsv: 0,
        opcode: i === 0 ? opcode : 0,
        masked: true,
        payload: payload.subarray(at, at + size),
      });
    return frames;
  });

describe('frames (property-based)', () => {
  it('any data message, whatever its size or fragmentation, gets the error frame and close 1008', async () => {
    await whileBystanderAsks(s.port, () =>
      fc.assert(
        fc.asyncProperty(dataMessage, async (frames) => {
          const raw = await openRawStream(s.port, QUERY);
          raw.socket.write(Buffer.concat(frames.map(encodeFrame)));
          await raw.closed;
          expect(closeCode(raw.frames())).toBe(1008);
          expect(textFrames(raw.frames()).at(-1)).toEqual(NO_MESSAGES);
          raw.socket.destroy();
        }),
        { numRuns: 40 },
      ),
    );
  });

  it('any sequence of frames, however malformed: only route frames, error frames before a close, 1002 or 1008', async () => {
    await whileBystanderAsks(s.port, () =>
      fc.assert(
        fc.asyncProperty(fc.array(anyFrame, { minLength: 1, maxLength: 4 }), async (frames) => {
          const raw = await openRawStream(s.port, QUERY);
          raw.socket.write(Buffer.concat(frames.map(encodeFrame)));
          // Control frames alone (ping, pong) leave the stream open: wait a little, then leave.
          await Promise.race([raw.closed, new Promise((r) => setTimeout(r, 300))]);
          const sent = raw.frames();
          // A well-formed close of the client's own, before anything refused, is answered in kind.
          const own = frames.find((f) => f.opcode === 8);
          const echoOf = own === undefined ? null : Buffer.from(own.payload);
          const texts = textFrames(sent, echoOf);
          for (const t of texts.slice(1, -1)) expect(t).toHaveProperty('requestId');
          const code = closeCode(sent);
          const echoed = echoOf !== null && sent.find((f) => f.opcode === 8)?.payload.equals(echoOf) === true;
          if (echoed) {
            expect(texts.at(-1) ?? {}).not.toHaveProperty('error');
          } else if (code !== null) {
            expect([1002, 1008]).toContain(code);
            expect(texts.at(-1)).toEqual({ error: expect.any(String), code, reason: expect.any(String) });
          }
          raw.socket.destroy();
        }),
        // Always tried: a client's own close (3000) followed by a stray continuation frame.
        {
          numRuns: 60,
          examples: [[[ownClose, { ...ownClose, fin: false, opcode: 0, payload: new Uint8Array() }]]],
        },
      ),
    );
    expect(s.alive()).toBe(true);
  });
});
