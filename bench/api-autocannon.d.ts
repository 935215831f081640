// The slice of autocannon's API the benches use (the package ships no types).
declare module 'autocannon' {
  interface Request {
    method?: string;
    path?: string;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    workers?: number;
    /** Cycled through in order; `setupRequest` is called for each request sent. */
    requests?: (Request & { setupRequest?: (req: Request & { path: string }) => Request })[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    max: number;
  }
  interface Result {
    latency: Histogram;
    requests: Histogram;
    /** Seconds the run took. */
    duration: number;
    non2xx: number;
    errors: number;
  }
  /** A run: awaitable for its result, and an emitter of each response as it comes. */
  interface Instance extends PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): this;
  }
  function autocannon(options: Options): Instance;
  export = autocannon;
}
