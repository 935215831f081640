import { crc32 } from 'node:zlib';

/** A level as Bitfinex's `book` channel (P0) sends it: price, order count, amount (< 0: an ask). */
export type BitfinexLevel = [price: number, count: number, amount: number];

/** Levels per side the book holds (Bitfinex's deepest `len`). */
export const BITFINEX_DEPTH = 100;

const tidy = (x: number): number => Number(x.toPrecision(8));

/**
 * One Bitfinex book as the venue holds it: BITFINEX_DEPTH levels a side on a fixed price grid
 * around `mid` (never crossed), changed deterministically (a seeded stream, the same every run)
 * one level at a time, as the venue's `book` channel reports changes.
 */
export class BitfinexBook {
  readonly levels = new Map<number, BitfinexLevel>();
  private seed: number;

  constructor(
    readonly mid: number,
    seed = 42,
  ) {
    this.seed = seed;
    for (let i = 0; i < BITFINEX_DEPTH; i++) {
      this.set([this.price(1, i), 1, tidy(1 + this.random() * 5)]);
      this.set([this.price(-1, i), 1, -tidy(1 + this.random() * 5)]);
    }
  }

  /** Apply a level as the venue sends it (count 0 removes the price). */
  set(level: BitfinexLevel): BitfinexLevel {
    if (level[1] === 0) this.levels.delete(level[0]);
    else this.levels.set(level[0], level);
    return level;
  }

  /** One change in the top 25 of either side: a new amount, or (one in ten) the level goes. */
  change(): BitfinexLevel {
    const side = this.random() < 0.5 ? 1 : -1;
    const price = this.price(side, Math.floor(this.random() * 25));
    if (this.random() < 0.1 && this.levels.has(price)) return this.set([price, 0, side]);
    return this.set([price, 1 + Math.floor(this.random() * 3), side * tidy(0.01 + this.random() * 5)]);
  }

  /** Bids best first and asks best first, at most `depth` each. */
  sides(depth = BITFINEX_DEPTH): { bids: BitfinexLevel[]; asks: BitfinexLevel[] } {
    const levels = [...this.levels.values()];
    return {
      bids: levels
        .filter((l) => l[2] > 0)
        .sort((a, b) => b[0] - a[0])
        .slice(0, depth),
      asks: levels
        .filter((l) => l[2] < 0)
        .sort((a, b) => a[0] - b[0])
        .slice(0, depth),
    };
  }

  /**
   * Bitfinex's checksum (conf flag 131072): the signed CRC32 of the top 25 bids and asks
   * interleaved as price:amount, asks' amounts negative (what ccxt's handleChecksum recomputes).
   */
  checksum(): number {
    const { bids, asks } = this.sides(25);
    const parts: number[] = [];
    for (let i = 0; i < 25; i++) {
      if (bids[i] !== undefined) parts.push(bids[i]![0], bids[i]![2]);
      if (asks[i] !== undefined) parts.push(asks[i]![0], asks[i]![2]);
    }
    return crc32(parts.join(':')) | 0;
  }

  /** A copy that changes on from this book's state and seed without touching it. */
  fork(): BitfinexBook {
    const out = Object.create(BitfinexBook.prototype) as BitfinexBook;
    Object.assign(out, { mid: this.mid, seed: this.seed, levels: new Map(this.levels) });
    return out;
  }

  /** Level `i` below (side 1, bids) or above (side -1, asks) the mid. */
  private price(side: 1 | -1, i: number): number {
    return tidy(this.mid * (1 - side * 0.0001 * (i + 1)));
  }

  private random(): number {
    this.seed = (this.seed * 1103515245 + 12345) & 0x7fffffff;
    return this.seed / 0x7fffffff;
  }
}

/**
 * A websocket text frame as a server sends it (unmasked, one fragment), so a flood can go out as
 * one socket write of many frames: the client reads exactly what `ws.send` of each would give it.
 */
export function textFrame(text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  const n = body.length;
  const head =
    n < 126
      ? Buffer.from([0x81, n])
      : n < 65_536
        ? Buffer.from([0x81, 126, n >> 8, n & 0xff])
        : Buffer.concat([Buffer.from([0x81, 127]), bigLength(n)]);
  return Buffer.concat([head, body]);
}

function bigLength(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}
