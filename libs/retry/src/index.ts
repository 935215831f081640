export { Backoff, backoffCeiling, backoffDelay } from './backoff';
export type { BackoffPolicy, Random } from './backoff';
export { retry } from './retry';
export type { RetryOptions } from './retry';
export { REAL_TIME, sleep } from './sleep';
export type { RetryTime } from './sleep';
export { asError, errorMessage } from './error-text';
