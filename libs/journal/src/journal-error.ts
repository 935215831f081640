/** Why a quote journal record was rejected; `field` is a JSON path such as `request.amount`. */
export type JournalErrorCode =
  'not_json' | 'not_object' | 'bad_version' | 'bad_type' | 'missing_field' | 'bad_field';

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
