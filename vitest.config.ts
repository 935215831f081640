import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

const alias = {
  '@app/events': resolve(__dirname, 'libs/events/src/index.ts'),
  '@app/books': resolve(__dirname, 'libs/books/src/index.ts'),
  '@app/routing': resolve(__dirname, 'libs/routing/src/index.ts'),
  '@app/event-log': resolve(__dirname, 'libs/event-log/src/index.ts'),
  '@app/config': resolve(__dirname, 'libs/config/src/index.ts'),
  '@app/journal': resolve(__dirname, 'libs/journal/src/index.ts'),
  '@app/request': resolve(__dirname, 'libs/request/src/index.ts'),
  '@app/synth': resolve(__dirname, 'libs/synth/src/index.ts'),
  '@test/support': resolve(__dirname, 'test/support/index.ts'),
  '@app/live-feed': resolve(__dirname, 'libs/live-feed/src/index.ts'),
  '@app/recordings': resolve(__dirname, 'libs/recordings/src/index.ts'),
  '@app/history': resolve(__dirname, 'libs/history/src/index.ts'),
  '@app/audit': resolve(__dirname, 'libs/audit/src/index.ts'),
  '@app/venues': resolve(__dirname, 'libs/venues/src/index.ts'),
  '@app/client': resolve(__dirname, 'libs/client/src/index.ts'),
  '@app/telemetry': resolve(__dirname, 'libs/telemetry/src/index.ts'),
  '@app/transparency': resolve(__dirname, 'libs/transparency/src/index.ts'),
  '@app/import': resolve(__dirname, 'libs/import/src/index.ts'),
  '@app/retry': resolve(__dirname, 'libs/retry/src/index.ts'),
  '@app/html': resolve(__dirname, 'libs/html/src/index.ts'),
};

/**
 * Five tiers (README "Tests"): `unit` specs touch no file, socket or process (lint-guarded);
 * `int` specs (`*.int.spec.ts`) use a real Kafka broker, real files, child processes or ccxt
 * against mock venues; `e2e` specs (`test/**\/*.e2e.spec.ts`) drive whole apps through sockets;
 * `alone` holds the int and e2e files that time the service under load (run after, one at a time);
 * `fleet` (`test/fleet/*.fleet.spec.ts`) runs the replicated deployment and breaks it; `chaos`
 * (`test/venues/chaos/*.e2e.spec.ts`) runs misbehaving venues against the ingestor. `npm test` runs
 * unit, int, e2e and alone; fleet and chaos (long, and rarely affected by a change elsewhere) run
 * in CI and by name (`npm run test:fleet`, `npm run test:chaos`).
 *
 * int and e2e files mostly wait on sockets, brokers and child processes, not on the CPU: they run
 * two at a time on two cores (int + e2e took 910 s one at a time in CI). The files that time the
 * service under attack or flood (ALONE: their bounds mean nothing with other files on the same
 * cores) run after them, one at a time, as does chaos.
 */
const TOGETHER = { sequence: { groupOrder: 0 } };
const ALONE = [
  'test/hostile/**/*.e2e.spec.ts',
  'test/venues/flood.e2e.spec.ts',
  'test/api/gate.e2e.spec.ts',
  'test/api/shutdown.e2e.spec.ts',
  'test/api/stream.e2e.spec.ts',
  'test/api/stream-pressure.e2e.spec.ts',
  'libs/audit/src/quote-journal.int.spec.ts',
];

export default defineConfig({
  resolve: { alias },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    // The default report, then the slowest files and tests (test/support/slow-report.ts).
    reporters: ['default', './test/support/slow-report.ts'],
    // Stops the Kafka test broker if this run started one (test/kafka/broker.ts).
    globalSetup: ['test/kafka/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts', 'test/**/*.spec.ts'],
          exclude: [
            '**/*.int.spec.ts',
            '**/*.e2e.spec.ts',
            '**/*.fleet.spec.ts',
            '**/node_modules/**',
            'dist/**',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'int',
          include: ['**/*.int.spec.ts'],
          exclude: [...ALONE, '**/node_modules/**', 'dist/**'],
          ...TOGETHER,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.spec.ts'],
          exclude: [...ALONE, 'test/venues/chaos/**', '**/node_modules/**'],
          ...TOGETHER,
        },
      },
      {
        // After the others, one file at a time: these assert how fast the service answers while
        // attacked or flooded, which other test files on the same cores would decide instead.
        extends: true,
        test: {
          name: 'alone',
          include: ALONE,
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'chaos',
          include: ['test/venues/chaos/**/*.e2e.spec.ts'],
          poolOptions: { forks: { singleFork: true } },
        },
      },
      {
        // The fleet (docs/operations-fleet.md): 3 brokers, Redis, HAProxy, 2 API replicas, 2
        // ingestors, each broken in turn under load. Each file starts its own fleet and its steps
        // share it; the files run one after the other (two fleets at once would starve 2 cores).
        extends: true,
        test: {
          name: 'fleet',
          include: ['test/fleet/**/*.fleet.spec.ts'],
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
