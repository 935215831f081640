import { STATUS_CODES } from 'node:http';
import { expect } from 'vitest';
import type { RawAnswer } from './raw';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The shape every error answer of the gate has: the status, a JSON body that is exactly
 * `{"error": string}` (not a reason phrase, not Nest's or Fastify's shapes), an x-request-id, and
 * the rate-limit headers unless the IPv4 rule refused it (refusals are not counted).
 */
export function expectGatedError(answer: RawAnswer, status: number, error?: string | RegExp): void {
  expect(answer.status, `answer: ${answer.raw.slice(0, 300)}`).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys((answer.json ?? {}) as object)).toEqual(['error']);
  const message: unknown = answer.json.error;
  expect(typeof message).toBe('string');
  expect(message).not.toBe(STATUS_CODES[status]);
  if (error !== undefined) expect(message).toMatch(typeof error === 'string' ? exact(error) : error);
  expect(answer.headers['x-request-id']).toBeDefined();
  if (status === 403) expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
  else {
    expect(answer.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    expect(answer.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(answer.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  }
}

/** Whether `id` is a minted request id (a UUID). */
export function isMintedId(id: string | undefined): boolean {
  return id !== undefined && UUID.test(id);
}

function exact(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
