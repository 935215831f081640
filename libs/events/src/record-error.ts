/** Why a record was rejected. `field` names the offending field when there is one. */
export type RecordErrorCode =
  'not_json' | 'not_object' | 'bad_version' | 'bad_type' | 'missing_field' | 'bad_field';

export class RecordError extends Error {
  constructor(
    readonly code: RecordErrorCode,
    /** Human description of the record: type/exchangeId/symbol/sequence when known. */
    readonly recordName: string,
    readonly field: string | null,
    detail: string,
  ) {
    super(`rejected record ${recordName}: ${field === null ? '' : `field '${field}' `}${detail}`);
    this.name = 'RecordError';
  }
}
