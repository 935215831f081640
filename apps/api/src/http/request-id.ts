import { randomUUID } from 'node:crypto';

const VALID = /^[\w.-]{1,200}$/;

/** The caller's x-request-id when it matches ^[\w.\-]{1,200}$, otherwise a minted UUID (silently). */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && VALID.test(header) ? header : randomUUID();
}
