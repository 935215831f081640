import { randomUUID } from 'node:crypto';
import { stopSharedIfOurs } from './broker';

/**
 * Vitest global setup: tags this run so the Kafka test broker, started lazily by the first
 * integration test that needs one (./broker.ts), is stopped at the end of the run that started
 * it. Runs that need no broker start none.
 */
export default function setup(): () => Promise<void> {
  const runId = randomUUID();
  process.env.ROUTE_TEST_RUN_ID = runId;
  return () => stopSharedIfOurs(runId);
}
