const ccxt = require('ccxt');
const fs = require('fs');
const dir = '/work/shared/data/captures/cryptofeed-2021-2022/';
function captured(file) { const out = new Map(); for (const line of fs.readFileSync(dir + file, 'utf8').split('\n')) { const m = /^(\S+) -> [\d.]+: (.*)$/.exec(line); if (m) out.set(m[1], m[2]); } return out; }
async function markets(id, file, empty) {
  const resp = captured(file);
  const ex = new ccxt[id]({ enableRateLimit: false });
  ex.fetchImplementation = async (url) => {
    const key = [...resp.keys()].find((k) => url.split('?')[0] === k.split('?')[0] && (k.includes('?') ? url.includes(k.split('?')[1]) : true));
    const body = key ? resp.get(key) : empty;
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { ex, ms: await ex.fetchMarkets() };
}
const QUOTES = ['USDT','USDC','FDUSD','BUSD','TUSD','USDP','PAX','DAI','UST','USTC','USDS','GUSD','HUSD','EURT','EURI','USD','EUR','GBP','JPY','TRY','BRL','AUD','CAD','CHF','KRW','RUB','UAH','NGN','ZAR','IDRT','BIDR','BVND','PLN','RON','ARS','MXN','COP','CZK','SGD','HKD','BTC','ETH','BNB','TRX','XRP','DOGE','SOL','DOT','VAI','BKRW','HT','USDD','AEUR','TRYB','EUROC','EURC','PYUSD','XAUT','HKDT','KCS'];
function split(sym) {
  let best = null;
  for (const q of QUOTES) if (sym.length > q.length && sym.endsWith(q) && (best === null || q.length > best.length)) best = q;
  return best === null ? null : [sym.slice(0, -best.length), best];
}
(async () => {
  const cases = [
    ['binance', 'BINANCE.0', '{"symbols":[]}', (m) => m.id, 'concat'],
    ['binanceus', 'BINANCE_US.0', '{"symbols":[]}', (m) => m.id, 'concat'],
    ['htx', 'HUOBI.0', '{"status":"ok","data":[]}', (m) => m.id.toUpperCase(), 'concat'],
    ['gemini', 'GEMINI.0', '[]', (m) => m.id.toUpperCase(), 'concat'],
    ['kraken', 'KRAKEN.0', '{}', (m) => m.info.wsname, '/'],
    ['okx', 'OKX.0', '{"code":"0","data":[]}', (m) => m.id, '-'],
    ['gate', 'GATEIO.0', '[]', (m) => m.id, '_'],
    ['kucoin', 'KUCOIN.0', '{"code":"200000","data":[]}', (m) => m.id, '-'],
    ['upbit', 'UPBIT.0', '[]', (m) => m.id, 'rev-'],
  ];
  for (const [id, file, empty, native, shape] of cases) {
    try {
      const { ex, ms } = await markets(id, file, empty);
      const spot = ms.filter((m) => m.spot);
      let ok = 0; const bad = [];
      for (const m of spot) {
        const n = native(m); let parts;
        if (shape === 'concat') parts = split(n);
        else if (shape === 'rev-') { const p = n.split('-'); parts = p.length === 2 ? [p[1], p[0]] : null; }
        else { const p = n.split(shape); parts = p.length === 2 ? p : null; }
        const sym = parts && `${ex.safeCurrencyCode(parts[0])}/${ex.safeCurrencyCode(parts[1])}`;
        if (sym === m.symbol) ok++; else bad.push(`${n}=>${sym} (ccxt ${m.symbol})`);
      }
      console.log(id, 'spot', spot.length, 'ok', ok, 'bad', bad.length, bad.slice(0, 12).join(' | '));
    } catch (e) { console.log(id, 'ERR', String(e.message).slice(0, 200)); }
  }
})();
