import { describe, expect, it } from 'vitest';
import { targetProblem } from './front-door';

describe('targetProblem', () => {
  it('refuses a path over 1024 or a query over 4096 characters with 414, before any router reads them', () => {
    expect(targetProblem(`/${'a'.repeat(1023)}`)).toBeNull();
    expect(targetProblem(`/${'a'.repeat(1024)}`)).toEqual({
      status: 414,
      error: 'the path is longer than 1024 characters',
    });
    expect(targetProblem(`/route?${'a'.repeat(4096)}`)).toBeNull();
    expect(targetProblem(`/route?${'a'.repeat(4097)}`)?.status).toBe(414);
  });
});
