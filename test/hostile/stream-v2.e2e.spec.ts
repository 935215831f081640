import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ofType, openV2, type V2Client } from '../api/support/stream-v2';
import { whileBystanderAsks } from './support/bystander';
import { spawnServer, type SpawnedServer } from './support/server';

// GET /stream parses what clients send (the one-route stream never did): every message, however
// malformed, gets one documented answer (each v2 message is checked against the AsyncAPI
// document by the client), the socket stays open, and bystanders are answered meanwhile.
let s: SpawnedServer;
beforeAll(async () => {
  s = await spawnServer({ STREAM_MAX_PER_IP: '1000', CONNECTIONS_MAX_PER_IP: '2000' });
});
afterAll(() => s.stop());

const url = (): string => `ws://127.0.0.1:${s.port}`;

/** Send one message on a fresh socket; resolve with the first answer after the welcome. */
async function answerTo(message: string | Buffer): Promise<{ answer: Record<string, unknown>; c: V2Client }> {
  const c = await openV2(url());
  await c.take(ofType('welcome'));
  c.ws.send(message);
  const answer = await c.take(() => true);
  return { answer, c };
}

const bad = async (message: string | Buffer, pattern: RegExp): Promise<void> => {
  const { answer, c } = await answerTo(message);
  expect(answer).toMatchObject({
    type: 'error',
    code: 'bad_message',
    status: 400,
    message: expect.stringMatching(pattern),
  });
  expect(c.ws.readyState).toBe(c.ws.OPEN);
  c.ws.close();
  await c.closed;
};

describe('the v2 message parser', () => {
  it('refuses what JSON.parse would take silently or slowly: repeated and prototype keys, depth, key count', async () => {
    await bad('{"type":"ping","id":"a","id":"b"}', /repeated|duplicate/i);
    await bad('{"type":"ping","__proto__":{"id":"x"}}', /__proto__|prototype/);
    await bad(`{"type":"subscribe","id":"d","route":${'['.repeat(50)}${']'.repeat(50)}}`, /deep|depth|nest/i);
    const keys = Array.from({ length: 600 }, (_, i) => `"k${i}":0`).join(',');
    await bad(`{"type":"subscribe","id":"k","route":{${keys}}}`, /keys/);
  });

  it('refuses binary frames, invalid UTF-8, text over 8 KiB, non-objects and unknown types or fields', async () => {
    await bad(Buffer.from([1, 2, 3]), /binary/);
    await bad('x'.repeat(8193), /at most 8192 bytes/);
    await bad('[1,2]', /JSON object/);
    await bad('{"type":"shout"}', /type must be/);
    await bad('{"type":"list","extra":1}', /unknown field/);
    await bad('{"type":"ping"}', /id must be/);
    await bad(
      '{"type":"subscribe","id":"r","route":{"from":"USDT","to":"BTC","amountIn":1},"resume":{"streamId":"x","seq":1}}',
      /resume must be/,
    );
  });

  it('a frame over 64 KiB is refused with an error and close 1009', async () => {
    const c = await openV2(url());
    await c.take(ofType('welcome'));
    c.ws.send('x'.repeat(65 * 1024));
    expect(await c.take(ofType('error'))).toMatchObject({ code: 'message_too_large' });
    expect((await c.closed).code).toBe(1009);
  });

  it('any text: exactly one documented answer, the socket open; bystanders answered meanwhile', async () => {
    const texts = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json(),
      fc
        .record({
          type: fc.constantFrom('subscribe', 'unsubscribe', 'list', 'ping'),
          id: fc.string(),
          route: fc.anything(),
        })
        .map((o) => JSON.stringify(o)),
    );
    await whileBystanderAsks(s.port, () =>
      fc.assert(
        fc.asyncProperty(texts, async (text) => {
          const { answer, c } = await answerTo(text);
          expect(typeof answer.type).toBe('string');
          expect(c.ws.readyState).toBe(c.ws.OPEN);
          c.ws.terminate();
        }),
        { numRuns: 60 },
      ),
    );
  });
});
