/** The service clock (DI token): routing freshness is judged against it. */
export abstract class Clock {
  abstract now(): number;
}

/** Live mode: the wall clock. */
export class WallClock extends Clock {
  now(): number {
    return Date.now();
  }
}

/** `--now <epochMs>`: a fixed instant, for tests and audits. */
export class PinnedClock extends Clock {
  constructor(private readonly at: number) {
    super();
  }
  now(): number {
    return this.at;
  }
}

/** Replay mode: the latest receivedAt fed so far (never moves backwards). */
export class ReplayClock extends Clock {
  private at = 0;
  advance(receivedAt: number): void {
    if (receivedAt > this.at) this.at = receivedAt;
  }
  now(): number {
    return this.at;
  }
}
