import type { Speaker } from '../speaker';
import { asterSpeaker, backpackSpeaker, bingxSpeaker, hitbtcSpeaker } from './batch-a';
import { bitfinexSpeaker } from './bitfinex';
import { binanceLike, okxLike } from './batch-like';
import {
  mexcSpeaker,
  nadoSpeaker,
  onetradingSpeaker,
  p2bSpeaker,
  pacificaSpeaker,
  phemexSpeaker,
} from './batch-f';
import { poloniexSpeaker, toobitSpeaker, weexSpeaker, whitebitSpeaker, xtSpeaker } from './batch-p';
import {
  gateSpeaker,
  geminiSpeaker,
  hashkeySpeaker,
  hollaexSpeaker,
  hyperliquidSpeaker,
  independentreserveSpeaker,
} from './batch-e';
import { krakenSpeaker, kucoinSpeaker, lbankSpeaker, lighterSpeaker } from './batch-k';
import {
  bybitLike,
  coinbaseSpeaker,
  coinexSpeaker,
  cryptocomSpeaker,
  deepcoinSpeaker,
  deribitSpeaker,
  deriveSpeaker,
} from './batch-d';
import { bitvavoSpeaker, blockchaincomSpeaker, bullishSpeaker, htxLike } from './batch-c';
import {
  bitgetSpeaker,
  bithumbSpeaker,
  bitoproSpeaker,
  bitrueSpeaker,
  bitstampSpeaker,
  upbitLike,
} from './batch-b';

/** A speaker per default venue: the mock side of each venue's protocol. */
export const SPEAKERS: Readonly<Record<string, () => Speaker>> = {
  aster: asterSpeaker,
  backpack: backpackSpeaker,
  bequant: () => hitbtcSpeaker('bequant'),
  binance: () => binanceLike('binance'),
  binanceus: () => binanceLike('binanceus'),
  bingx: bingxSpeaker,
  bitfinex: bitfinexSpeaker,
  bitget: bitgetSpeaker,
  bithumb: bithumbSpeaker,
  bitopro: bitoproSpeaker,
  bitrue: bitrueSpeaker,
  bitstamp: bitstampSpeaker,
  bittrade: () => htxLike('bittrade'),
  bitvavo: bitvavoSpeaker,
  blockchaincom: blockchaincomSpeaker,
  bullish: bullishSpeaker,
  bybit: () => bybitLike('bybit'),
  bybiteu: () => bybitLike('bybiteu'),
  bybitid: () => bybitLike('bybitid'),
  coinbase: coinbaseSpeaker,
  coinex: coinexSpeaker,
  cryptocom: cryptocomSpeaker,
  deepcoin: deepcoinSpeaker,
  deribit: deribitSpeaker,
  derive: deriveSpeaker,
  gate: () => gateSpeaker('gate'),
  gateeu: () => gateSpeaker('gateeu'),
  gemini: geminiSpeaker,
  hashkey: hashkeySpeaker,
  hollaex: hollaexSpeaker,
  hyperliquid: hyperliquidSpeaker,
  independentreserve: independentreserveSpeaker,
  kraken: krakenSpeaker,
  kucoin: kucoinSpeaker,
  lbank: lbankSpeaker,
  lighter: lighterSpeaker,
  mexc: mexcSpeaker,
  myokx: () => okxLike('myokx'),
  nado: nadoSpeaker,
  okx: () => okxLike('okx'),
  okxus: () => okxLike('okxus'),
  onetrading: onetradingSpeaker,
  p2b: p2bSpeaker,
  pacifica: pacificaSpeaker,
  phemex: phemexSpeaker,
  poloniex: poloniexSpeaker,
  toobit: toobitSpeaker,
  weex: weexSpeaker,
  whitebit: whitebitSpeaker,
  xt: xtSpeaker,
  htx: () => htxLike('htx'),
  upbit: () => upbitLike('upbit'),
  hitbtc: () => hitbtcSpeaker('hitbtc'),
};
