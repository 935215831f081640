import { gaussian, type Random } from './random';

/**
 * Reference prices in USDT of BTC, ETH, SOL, XRP and USDC: correlated geometric random walks for
 * BTC, ETH, SOL and XRP, a mean-reverting peg for USDC. Every market's reference mid is a ratio of
 * these, so the cross rates (ETH/BTC, SOL/BTC, BTC/USDC, ...) stay triangle-consistent and venue
 * books can only disagree by their own small deviations, as arbitrage keeps real venues together.
 * SOL and XRP draw their own noise from `altRand`, so BTC, ETH and USDC move exactly as they did
 * before SOL and XRP were added.
 */
export class ReferencePrices {
  private btc = 65_000;
  private eth = 3_200;
  private sol = 77.4;
  private xrp = 1.38;
  private usdc = 0.9999;

  constructor(
    private readonly rand: Random,
    private readonly altRand: Random,
    /** Volatility per sqrt(second) of BTC (ETH is 1.3x, correlated 0.8; SOL 1.6x, 0.75; XRP 1.5x, 0.6). */
    private readonly sigma = 0.00007,
  ) {}

  /** Advance by `dtMs` milliseconds. */
  step(dtMs: number): void {
    const sq = Math.sqrt(dtMs / 1000);
    const z1 = gaussian(this.rand);
    const z2 = 0.8 * z1 + 0.6 * gaussian(this.rand);
    this.btc *= Math.exp(this.sigma * sq * z1);
    this.eth *= Math.exp(1.3 * this.sigma * sq * z2);
    // The peg pulls back towards 0.9999 with a half-life of a few seconds.
    this.usdc += (0.9999 - this.usdc) * Math.min(1, (dtMs / 1000) * 0.2) + 0.00002 * sq * gaussian(this.rand);
    const z3 = 0.75 * z1 + Math.sqrt(1 - 0.75 ** 2) * gaussian(this.altRand);
    const z4 = 0.6 * z1 + 0.8 * gaussian(this.altRand);
    this.sol *= Math.exp(1.6 * this.sigma * sq * z3);
    this.xrp *= Math.exp(1.5 * this.sigma * sq * z4);
  }

  /** Reference mid of `base/quote` (quote per base). */
  mid(base: string, quote: string): number {
    return this.usd(base) / this.usd(quote);
  }

  private usd(asset: string): number {
    switch (asset) {
      case 'BTC':
        return this.btc;
      case 'ETH':
        return this.eth;
      case 'SOL':
        return this.sol;
      case 'XRP':
        return this.xrp;
      case 'USDC':
        return this.usdc;
      case 'USDT':
        return 1;
      default:
        throw new Error(`no reference price for ${asset}`);
    }
  }
}
