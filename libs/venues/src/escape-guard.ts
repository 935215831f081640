/**
 * A venue the guard can blame: its ccxt id, the ccxt source files of its class chain (bybiteu's
 * are bybiteu and bybit), the URLs it talks to, and what to do with an error it caused.
 */
export interface EscapeTarget {
  readonly exchangeId: string;
  /** ccxt source file names (without .js) of the venue's class and its ccxt ancestors. */
  readonly sourceFiles: readonly string[];
  /** URLs (ws clients, REST bases) the venue talks to now. */
  urls(): Iterable<string>;
  /** An error escaped from this venue's path: count, log, reconnect. */
  contain(error: unknown, origin: EscapeOrigin): void;
}

export type EscapeOrigin = 'unhandledRejection' | 'uncaughtException';

/** ccxt's own venue sources in a stack frame: .../ccxt/js/src/pro/<id>.js or .../ccxt/js/src/<id>.js. */
const CCXT_FRAME = /[\\/]ccxt[\\/](?:js|dist[\\/]cjs)[\\/]src[\\/](?:pro[\\/])?([a-z0-9]+)\.js/g;

function textOf(e: unknown): { message: string; stack: string } {
  const parts: string[] = [];
  const stacks: string[] = [];
  let cur: unknown = e;
  // The error and its causes (ccxt wraps some errors).
  for (let depth = 0; depth < 4 && cur !== undefined && cur !== null; depth++) {
    if (cur instanceof Error) {
      parts.push(cur.message);
      stacks.push(cur.stack ?? '');
      cur = (cur as { cause?: unknown }).cause;
    } else {
      parts.push(typeof cur === 'string' ? cur : safeString(cur));
      break;
    }
  }
  return { message: parts.join('\n'), stack: stacks.join('\n') };
}

function safeString(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/**
 * Which venues an error that escaped belongs to, by evidence in this order: a venue URL in its
 * message (ccxt names the URL in connection errors), a message starting with the venue id (ccxt
 * prefixes its exchange errors so), a frame of the venue's own ccxt source in its stack. Several
 * venues when the evidence fits several (bybit.js is also bybiteu's); none when nothing fits.
 */
export function attribute(e: unknown, targets: Iterable<EscapeTarget>): EscapeTarget[] {
  const { message, stack } = textOf(e);
  const all = [...targets];
  const byUrl = all.filter((t) => {
    for (const url of t.urls()) if (url.length > 0 && message.includes(url)) return true;
    return false;
  });
  if (byUrl.length > 0) return byUrl;
  const byId = all.filter((t) => message.startsWith(`${t.exchangeId} `));
  if (byId.length > 0) return byId;
  const files = new Set<string>();
  for (const m of stack.matchAll(CCXT_FRAME)) files.add(m[1]!);
  if (files.size === 0) return [];
  // The most derived class wins: a frame of bybiteu.js blames bybiteu, one of bybit.js only blames
  // bybit when no bybiteu frame is present.
  const own = all.filter((t) => files.has(t.exchangeId));
  if (own.length > 0) return own;
  return all.filter((t) => t.sourceFiles.some((f) => files.has(f)));
}

/**
 * The last line of defence: a process-wide listener for rejections nobody handled and exceptions
 * nobody caught. One that can be attributed to a running venue (attribute()) is handed to that
 * venue (logged, counted, turned into its reconnect); anything else is not ours to swallow: when
 * no other listener is installed, the process ends as Node would have ended it (the error on
 * stderr, exit status 1).
 */
export class EscapeGuard {
  private readonly targets = new Set<EscapeTarget>();
  private installed = false;
  /** Escapes that could not be attributed while another listener owned the decision. */
  unattributed = 0;

  constructor(
    private readonly proc: NodeJS.Process = process,
    private readonly fatal: (error: unknown, origin: EscapeOrigin) => void = defaultFatal,
  ) {}

  /** Guard `target` until the returned function is called. */
  register(target: EscapeTarget): () => void {
    this.targets.add(target);
    this.install();
    return () => {
      this.targets.delete(target);
      if (this.targets.size === 0) this.uninstall();
    };
  }

  /** Handle one escaped error (what the listeners call). */
  handle(error: unknown, origin: EscapeOrigin): void {
    const blamed = attribute(error, this.targets);
    if (blamed.length > 0) {
      for (const t of blamed) t.contain(error, origin);
      return;
    }
    // Another listener (a test runner, an embedding app) decides about errors that are not ours.
    if (this.proc.listenerCount(origin) > 1) {
      this.unattributed++;
      return;
    }
    this.fatal(error, origin);
  }

  private readonly onRejection = (reason: unknown): void => this.handle(reason, 'unhandledRejection');
  private readonly onException = (error: Error): void => this.handle(error, 'uncaughtException');

  private install(): void {
    if (this.installed) return;
    this.installed = true;
    this.proc.on('unhandledRejection', this.onRejection);
    this.proc.on('uncaughtException', this.onException);
  }

  private uninstall(): void {
    if (!this.installed) return;
    this.installed = false;
    this.proc.off('unhandledRejection', this.onRejection);
    this.proc.off('uncaughtException', this.onException);
  }
}

function defaultFatal(error: unknown, origin: EscapeOrigin): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : safeString(error);
  process.stderr.write(`${origin} not attributable to any venue; ending the process:\n${text}\n`);
  process.exit(1);
}

/** The one guard of this process (every Ingestor registers its venues with it). */
export const escapeGuard = new EscapeGuard();
