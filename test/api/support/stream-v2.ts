import WebSocket from 'ws';
import { book } from '../../support/records';
import { assertDocumentedFrame, assertDocumentedV2Message } from './contract';
import type { TestServer } from './server';

/** The route the v2 suites subscribe to: USDT->BTC over alpha's book in the fixture world. */
export const ROUTE = { from: 'USDT', to: 'BTC', amountIn: 100.1, bridges: '' };

/**
 * A writer that moves alpha's BTC/USDT book to ask `ask` (bid one below) on the server `server()`
 * returns, each move with the next sequence: one per suite, so each numbers its own moves.
 */
export function alphaMover(server: () => TestServer): (ask: number) => Promise<void> {
  let seq = 1;
  return (ask) => server().write([book('alpha', 'BTC/USDT', [[ask - 1, 1]], [[ask, 5]], ++seq)]);
}

/** A parsed server message of the v2 stream (fields checked by the tests). */
export type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A real ws client of GET /stream speaking routestream.v2; messages kept with their raw text. */
export interface V2Client {
  readonly ws: WebSocket;
  readonly messages: Message[];
  readonly raw: string[];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** The first message not taken yet that matches (every earlier one stays for later takes). */
  take(match: (m: Message) => boolean, timeoutMs?: number): Promise<Message>;
  send(message: unknown): void;
  /** How many messages matching have arrived so far (taken or not). */
  count(match: (m: Message) => boolean): number;
}

export const ofType =
  (type: string, id?: string) =>
  (m: Message): boolean =>
    m.type === type && (id === undefined || m.id === id);

/** Open /stream (or `path`) offering `protocols`; resolves once open (rejects with the HTTP refusal's status and body). */
export async function openV2(
  wsBase: string,
  protocols: string[] = ['routestream.v2'],
  path = '/stream',
): Promise<V2Client> {
  const ws = new WebSocket(`${wsBase}${path}`, protocols);
  const messages: Message[] = [];
  const raw: string[] = [];
  const taken = new Set<number>();
  let wake: (() => void) | null = null;
  ws.on('message', (data: Buffer) => {
    const text = data.toString();
    raw.push(text);
    const message = JSON.parse(text) as Message;
    // Every message must be one the AsyncAPI document declares (v1 frames on /stream/route).
    // (A refusal on /stream/route is the v1 error frame, whatever the envelope asked for.)
    const v2 = ws.protocol === 'routestream.v2' || (path.includes('envelope=v2') && 'type' in message);
    if (v2) assertDocumentedV2Message(message);
    else assertDocumentedFrame(message);
    messages.push(message);
    wake?.();
  });
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(Object.assign(new Error('refused'), { status: res.statusCode, body })));
    });
    ws.once('error', reject);
  });
  const find = (match: (m: Message) => boolean): number =>
    messages.findIndex((m, i) => !taken.has(i) && match(m));
  return {
    ws,
    messages,
    raw,
    closed,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    count: (match) => messages.filter(match).length,
    take: (match, timeoutMs = 3000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          wake = null;
          reject(
            new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(messages).slice(-1500)}`),
          );
        }, timeoutMs);
        const look = (): void => {
          const i = find(match);
          if (i < 0) return;
          taken.add(i);
          clearTimeout(timer);
          wake = null;
          resolve(messages[i]!);
        };
        wake = look;
        look();
      }),
  };
}

/** The result's exact text inside a quote message (what resultSha256 hashes). */
export function resultText(raw: string): string {
  const at = raw.indexOf(',"result":');
  return raw.slice(at + ',"result":'.length, -1);
}
