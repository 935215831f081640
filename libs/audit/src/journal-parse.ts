import { journalParser } from '@app/journal';
import { validateStoredRequest } from '@app/request';

/**
 * The journal's readers with the request model's rules for stored requests: libs/journal holds
 * the format and stays pure; the validator (class-validator, in libs/request) is joined to it here.
 */
export const { parseJournalEntryLine, parseJournalValueLine, parseQuoteRecord, parseQuoteRecordLine } =
  journalParser(validateStoredRequest);
