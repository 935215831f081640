/** One rejected flag or environment variable. */
export interface ConfigIssue {
  /** `--flag` or `ENV_NAME`. */
  readonly key: string;
  readonly problem: string;
}

/** Every bad key found while loading a configuration, reported together (fail fast, list all). */
export class ConfigError extends Error {
  constructor(readonly issues: readonly ConfigIssue[]) {
    super(`invalid configuration:\n${issues.map((i) => `  ${i.key}: ${i.problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Bad command-line input found after parsing: a CLI prints the message and exits with status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
