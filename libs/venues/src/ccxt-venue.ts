import * as ccxt from 'ccxt';
import type { CcxtSide } from './book-diff';

/** The part of a ccxt market the ingestor reads. */
export interface CcxtMarket {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly spot?: boolean;
  readonly active?: boolean | null;
  readonly taker?: unknown;
  readonly precision?: { readonly price?: number; readonly amount?: number };
}

/** The live, mutable book object ccxt resolves with. */
export interface CcxtBook {
  readonly symbol?: string;
  readonly bids: CcxtSide;
  readonly asks: CcxtSide;
  readonly timestamp?: number;
}

/** The part of ccxt's websocket client the ingestor touches. */
export interface CcxtClient {
  readonly url: string;
  resolve(result: unknown, messageHash?: string): unknown;
  send(message: unknown): Promise<unknown>;
  onError(error: Error): void;
  close(): unknown;
}

/** The narrow surface of a ccxt pro exchange this app uses (ccxt's own typings are loose). */
export interface CcxtProExchange {
  readonly id: string;
  /** ccxt's REST pace: ms per unit of request cost. */
  readonly rateLimit?: number;
  readonly has: Readonly<Record<string, unknown>>;
  readonly markets: Readonly<Record<string, CcxtMarket>> | undefined;
  clients: Record<string, CcxtClient>;
  /** The live books by unified symbol (ccxt deletes a book it gave up on: a gap, an unsubscribe). */
  readonly orderbooks: Record<string, CcxtBook | undefined>;
  readonly urls: Readonly<Record<string, unknown>>;
  client(url: string): CcxtClient;
  handleMessage(client: CcxtClient, message: unknown): unknown;
  /** The unified symbol of a market id (the id itself when unknown). */
  safeSymbol(marketId: string): string;
  loadMarkets(): Promise<unknown>;
  loadHttpProxyAgent(): Promise<unknown>;
  watchOrderBook(symbol: string, limit?: number): Promise<CcxtBook>;
  watchOrderBookForSymbols(symbols: string[], limit?: number): Promise<CcxtBook>;
  unWatchOrderBook(symbol: string, params?: Record<string, unknown>): Promise<unknown>;
  close(): Promise<unknown>;
}

type Ctor = new (config?: Record<string, unknown>) => unknown;

function classOf(table: unknown, id: string): Ctor | undefined {
  const value = (table as Record<string, unknown>)[id];
  return typeof value === 'function' ? (value as Ctor) : undefined;
}

let watchIds: ReadonlySet<string> | undefined;

/** ccxt pro ids with watchOrderBook (ccxt.pro.exchanges is missing from the typings); computed once. */
export function watchOrderBookIds(): ReadonlySet<string> {
  if (watchIds !== undefined) return watchIds;
  const ids = new Set<string>();
  for (const id of Object.keys(ccxt.pro).sort()) {
    const Pro = classOf(ccxt.pro, id);
    if (Pro === undefined || !/^[a-z0-9]+$/.test(id)) continue;
    const { has } = new Pro() as { has?: Record<string, unknown> };
    if (has?.watchOrderBook === true) ids.add(id);
  }
  watchIds = ids;
  return ids;
}

/**
 * Construct the pro class of `id` with `config` (ccxt deep-merges object-valued options such as
 * urls and options into its defaults) and read `certified` from the REST class: the pro classes
 * myokx and okxus inherit okx's `true` although their REST classes say false.
 */
export function createVenue(
  id: string,
  config: Readonly<Record<string, unknown>>,
): { exchange: CcxtProExchange; certified: boolean; sourceFiles: string[] } {
  const Pro = classOf(ccxt.pro, id);
  const Rest = classOf(ccxt, id);
  if (Pro === undefined || Rest === undefined) throw new Error(`'${id}' is not a ccxt pro exchange`);
  const exchange = new Pro({ enableRateLimit: true, ...structuredClone(config) }) as CcxtProExchange;
  const certified = (new Rest() as { certified?: unknown }).certified === true;
  return { exchange, certified, sourceFiles: classChain(exchange) };
}

/** ccxt class names from the venue's own up to Exchange (bybiteu: bybiteu, bybit): its source files. */
function classChain(exchange: object): string[] {
  const names: string[] = [];
  for (
    let p = Object.getPrototypeOf(exchange) as object | null;
    p !== null;
    p = Object.getPrototypeOf(p) as object | null
  ) {
    const name = (p as { constructor?: { name?: string } }).constructor?.name ?? '';
    if (name === 'Exchange' || name === '') break;
    const file = name.replace(/\$\d+$/, '');
    if (!names.includes(file)) names.push(file);
  }
  return names;
}

/** A ccxt NetworkError (disconnects, timeouts, InvalidNonce, ChecksumError). */
export function isNetworkError(e: unknown): boolean {
  return e instanceof ccxt.NetworkError;
}
