import type { Speaker } from '../speaker';
import { localCcxt, pairs } from '../markets';

/**
 * Bitfinex v2 public socket (ccxt pro/bitfinex.js): `{event:"subscribe",channel:"book",symbol}`
 * gets `{event:"subscribed",chanId,...}`, then `[chanId, [[price, count, amount], ...]]` (amount
 * > 0 bids, < 0 asks) and changes `[chanId, [price, count, amount]]` (count 0 deletes).
 * `{event:"conf"}` (checksum flag) is acknowledged.
 */
export function bitfinexSpeaker(): Speaker {
  const markets = pairs((b, q) => `t${b}${q === 'USDT' ? 'UST' : q}`, 8);
  let nextChan = 100;
  const chanOf = (data: Record<string, unknown>, id: string): number => data[id] as number;
  return {
    id: 'bitfinex',
    markets,
    ccxt: (u) => localCcxt('bitfinex', u, markets),
    onConnection: (s) => s.send({ event: 'info', version: 2, platform: { status: 1 } }),
    onFrame: (s, msg) => {
      const m = msg as { event?: string; channel?: string; symbol?: string; flags?: number; chanId?: number };
      if (m.event === 'conf') return s.send({ event: 'conf', status: 'OK', flags: m.flags });
      if (m.event === 'unsubscribe') {
        const sym = Object.keys(s.data).find((k) => s.data[k] === Number(m.chanId));
        if (sym !== undefined) s.unsubscribe([sym]);
        return s.send({ event: 'unsubscribed', status: 'OK', chanId: Number(m.chanId) });
      }
      if (m.event !== 'subscribe' || m.channel !== 'book' || m.symbol === undefined) return;
      const chanId = nextChan++;
      s.data[m.symbol] = chanId;
      s.send({
        event: 'subscribed',
        channel: 'book',
        chanId,
        symbol: m.symbol,
        prec: 'P0',
        freq: 'F0',
        len: '25',
        pair: m.symbol.slice(1),
      });
      s.subscribe([m.symbol]);
    },
    snapshot: (s, id, book) => [
      [
        chanOf(s.data, id),
        [...book.bids.map(([p, a]) => [p, 1, a]), ...book.asks.map(([p, a]) => [p, 1, -a])],
      ],
    ],
    delta: (s, id, change) => [
      ...change.bids.map(([p, a]) => [chanOf(s.data, id), [p, a === 0 ? 0 : 1, a === 0 ? 1 : a]]),
      ...change.asks.map(([p, a]) => [chanOf(s.data, id), [p, a === 0 ? 0 : 1, a === 0 ? -1 : -a]]),
    ],
  };
}
