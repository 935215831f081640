import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import type { FloodMarket } from '@app/synth';

/** VENUES_CONFIG running only bitfinex, pointed at the flood venue, its markets injected offline. */
export function venuesConfig(ws: string, markets: readonly FloodMarket[]): unknown {
  const market = (m: FloodMarket): Record<string, unknown> => ({
    id: m.id,
    symbol: `${m.base}/${m.quote}`,
    base: m.base,
    quote: m.quote,
    baseId: m.base,
    quoteId: m.quote,
    type: 'spot',
    spot: true,
    active: true,
    taker: 0.002,
    precision: {},
    limits: {},
  });
  return {
    venues: {
      bitfinex: {
        symbols: markets.map((m) => `${m.base}/${m.quote}`),
        ccxt: {
          urls: { api: { ws: { public: `${ws}/ws/2` } } },
          markets: Object.fromEntries(markets.map((m) => [`${m.base}/${m.quote}`, market(m)])),
        },
      },
    },
  };
}

/** One GET on a connection of its own (as a new user's request), its status and body. */
export function get(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((res) => {
    const req = request(url + path, { agent: false, timeout: 10_000 }, (r) => {
      let body = '';
      r.on('data', (c: Buffer) => (body += c.toString()));
      r.on('end', () => res({ status: r.statusCode ?? 0, body }));
      r.on('error', () => res({ status: 0, body }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => res({ status: 0, body: '' }));
    req.end();
  });
}

/** The base URL `route-service start` prints in its listening line (JSON on stdout). */
export function listening(child: ChildProcess): Promise<string> {
  return new Promise((res, rej) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /"message":"listening","port":(\d+)/.exec(out);
      if (m !== null) res(`http://127.0.0.1:${m[1]}`);
    });
    child.once('exit', (code) => rej(new Error(`route-service start exited ${code}`)));
  });
}
