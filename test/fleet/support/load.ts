import { get } from './client';

/** One answer of the load: who asked, who answered, what. */
export interface Answered {
  readonly from: string;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly servedBy: string | undefined;
  readonly body: string;
  readonly at: number;
}

/** Quote load: each client address asks `path` at most `rps` times a second (under the rate limit) until stopped. */
export class QuoteLoad {
  readonly answers: Answered[] = [];
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(base: string, path: string, addresses: readonly string[], rps = 4) {
    this.loops = addresses.map(async (from) => {
      const gap = 1000 / rps;
      while (this.running) {
        const t0 = Date.now();
        const r = await get(base, path, from);
        this.answers.push({
          from,
          status: r.status,
          requestId: r.headers['x-request-id'] as string | undefined,
          servedBy: r.headers['x-served-by'] as string | undefined,
          body: r.body,
          at: Date.now(),
        });
        // A little over the gap: a window opened by this client never sees more than `rps`.
        await new Promise((res) => setTimeout(res, Math.max(0, gap + 15 - (Date.now() - t0))));
      }
    });
  }

  async stop(): Promise<Answered[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.answers;
  }
}
