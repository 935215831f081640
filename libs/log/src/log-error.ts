/** Why an event-log operation failed. */
export type LogErrorCode = 'locked' | 'closed' | 'bad_argument' | 'corrupt' | 'unavailable' | 'not_found';

export class LogError extends Error {
  constructor(
    readonly code: LogErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'LogError';
  }
}
