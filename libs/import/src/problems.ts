/**
 * What the import refuses in its input, each counted apart: a row it cannot read (`malformed`), a
 * price or amount below zero (`negative`) or not finite (`non_finite`), a row earlier than the one
 * before it in the same file (`out_of_order`), a book left crossed by a change (`crossed`), rows of
 * a book that another dataset already feeds (`second_source`).
 */
export const PROBLEM_KINDS = [
  'malformed',
  'negative',
  'non_finite',
  'out_of_order',
  'crossed',
  'second_source',
] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

/** One refused row (or change), named by file and line. */
export interface Problem {
  readonly kind: ProblemKind;
  readonly file: string;
  readonly line: number;
  readonly detail: string;
}

/** The problem's one-line report: `file:line: kind: detail`. */
export function problemText(p: Problem): string {
  return `${p.file}:${p.line}: ${p.kind.replaceAll('_', ' ')}: ${p.detail}`;
}

/** Thrown by `--strict` at the first problem: the import stops and writes nothing. */
export class StrictStop extends Error {
  override readonly name = 'StrictStop';
  constructor(readonly problem: Problem) {
    super(problemText(problem));
  }
}

/** Collects problems: counts them by kind, hands each to `report`, and stops at the first when strict. */
export class Problems {
  readonly counts: Record<ProblemKind, number> = {
    malformed: 0,
    negative: 0,
    non_finite: 0,
    out_of_order: 0,
    crossed: 0,
    second_source: 0,
  };
  total = 0;

  constructor(
    private readonly strict: boolean,
    private readonly report: (p: Problem) => void,
  ) {}

  add(kind: ProblemKind, file: string, line: number, detail: string): void {
    const p: Problem = { kind, file, line, detail };
    this.counts[kind]++;
    this.total++;
    if (this.strict) throw new StrictStop(p);
    this.report(p);
  }

  /** `malformed 2, negative 1` for the kinds seen, or `none`. */
  summary(): string {
    const seen = PROBLEM_KINDS.filter((k) => this.counts[k] > 0).map(
      (k) => `${k.replaceAll('_', ' ')} ${this.counts[k]}`,
    );
    return seen.length === 0 ? 'none' : seen.join(', ');
  }
}

/**
 * Input the import cannot start or finish with (a file it cannot read, a header it does not know,
 * a bad --symbols or --markets file, symbols it cannot map): the command exits 2 and writes nothing.
 */
export class ImportUsageError extends Error {
  override readonly name = 'ImportUsageError';
}
