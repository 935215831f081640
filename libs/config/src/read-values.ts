import type { ConfigIssue } from './config-error';

/** Collects issues while reading typed values, so every bad key is reported at once. */
export class Reader {
  readonly issues: ConfigIssue[] = [];

  constructor(
    private readonly flags: ReadonlyMap<string, string>,
    private readonly env: Readonly<Record<string, string | undefined>>,
  ) {}

  flag(name: string): string | undefined {
    return this.flags.get(name);
  }

  envValue(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  bad(key: string, problem: string): void {
    this.issues.push({ key, problem });
  }

  /** An env value that is `true` or `false` (default false). */
  bool(key: string): boolean {
    const v = this.envValue(key);
    if (v !== undefined && v !== 'true' && v !== 'false') this.bad(key, `must be true or false, got '${v}'`);
    return v === 'true';
  }

  /** An integer in [min, max] from a flag or env value; `fallback` when absent. */
  int(key: string, raw: string | undefined, fallback: number, min: number, max: number): number {
    if (raw === undefined) return fallback;
    if (!/^[+]?\d+$/.test(raw)) {
      this.bad(key, `must be an integer, got '${raw}'`);
      return fallback;
    }
    const n = Number(raw);
    if (n < min || n > max) {
      this.bad(key, `must be between ${min} and ${max}, got ${raw}`);
      return fallback;
    }
    return n;
  }

  /** A plain decimal number in [min, max]; `fallback` when absent. */
  num(key: string, raw: string | undefined, fallback: number, min: number, max: number): number {
    if (raw === undefined) return fallback;
    if (!/^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw)) {
      this.bad(key, `must be a plain decimal number, got '${raw}'`);
      return fallback;
    }
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) {
      this.bad(key, `must be between ${min} and ${max}, got ${raw}`);
      return fallback;
    }
    return n;
  }
}
