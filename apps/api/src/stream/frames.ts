import { randomUUID } from 'node:crypto';
import type { RouteResult } from '@app/routing';

const PREFIX = '{"requestId":""';

/** A RouteResult serialised once per tick; each subscriber gets its own fresh requestId (spec 6.1). */
export class SharedFrame {
  private readonly body: string;
  private readonly fast: boolean;

  constructor(readonly result: RouteResult) {
    this.body = JSON.stringify({ ...result, requestId: '' });
    // The solver puts requestId first; splicing the id in saves a stringify per subscriber.
    this.fast = this.body.startsWith(PREFIX);
  }

  stamp(requestId: string = randomUUID()): string {
    return this.fast
      ? `{"requestId":${JSON.stringify(requestId)}${this.body.slice(PREFIX.length)}`
      : JSON.stringify({ ...this.result, requestId });
  }
}

/** Clarifications 11: `{"error","code","reason"}`, sent before every error close. */
export function errorFrame(error: string, code: 1008 | 1013, reason: string): string {
  return JSON.stringify({ error, code, reason });
}
