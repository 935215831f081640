import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

const alias = {
  '@app/events': resolve(__dirname, 'libs/events/src/index.ts'),
  '@app/books': resolve(__dirname, 'libs/books/src/index.ts'),
  '@app/routing': resolve(__dirname, 'libs/routing/src/index.ts'),
  '@app/log': resolve(__dirname, 'libs/log/src/index.ts'),
  '@app/config': resolve(__dirname, 'libs/config/src/index.ts'),
  '@app/journal': resolve(__dirname, 'libs/journal/src/index.ts'),
  '@app/request': resolve(__dirname, 'libs/request/src/index.ts'),
  '@app/feed': resolve(__dirname, 'libs/feed/src/index.ts'),
  '@app/audit': resolve(__dirname, 'libs/audit/src/index.ts'),
  '@app/venues': resolve(__dirname, 'libs/venues/src/index.ts'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts', 'test/**/*.e2e-spec.ts', 'test/**/*.spec.ts'],
    pool: 'forks',
    // Stops the Kafka test broker if this run started one (test/kafka/broker.ts).
    globalSetup: ['test/kafka/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
