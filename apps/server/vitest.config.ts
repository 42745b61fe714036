import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      '@haversack/contracts': fileURLToPath(
        new URL('../../packages/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The scale-out test needs PostgreSQL and Redis: it runs in the PostgreSQL pass (TEST_DATABASE_URL).
    exclude: process.env.TEST_DATABASE_URL
      ? ['**/node_modules/**']
      : ['**/node_modules/**', 'src/**/*.pg-redis.test.ts'],
    globalSetup: ['./src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
