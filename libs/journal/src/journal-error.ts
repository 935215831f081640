/** Why a quote journal record was rejected; `field` is a JSON path such as `request.amount`. */
export type JournalErrorCode =
  | 'not_json'
  | 'not_object'
  | 'bad_version'
  | 'bad_type'
  | 'missing_field'
  | 'bad_field'
  /** A valid stream open or close, read where a result's record was expected. */
  | 'not_a_result';

export class JournalError extends Error {
  constructor(
    readonly code: JournalErrorCode,
    readonly field: string | null,
    detail: string,
  ) {
    super(`rejected quote record: ${field === null ? '' : `field '${field}' `}${detail}`);
    this.name = 'JournalError';
  }
}
