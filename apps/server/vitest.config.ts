import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * Files that start the server as a process on PGlite, whatever TEST_DATABASE_URL says: they unpack the
 * PGlite template (`inject`) for a DATA_DIR, which alone would count them among the files that reach the
 * test database.
 */
const pgliteProcessFiles = ['src/main.test.ts'];

/**
 * The PostgreSQL pass runs the files that reach the test database: they clone the template through
 * the helper (`buildTestApp`, `openTestDatabase`) or `inject` it themselves. The other files (pure
 * rules, config, the PGlite-only process tests in main.test.ts) run the very same code on either pass,
 * so they run once, in the PGlite pass, instead of twice.
 */
function engineIndependentFiles(): string[] {
  const files = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.test.ts'),
  );
  return files
    .filter(
      (file) =>
        !/test\/helper\.js|(?<![.\w])inject\(/.test(readFileSync(path.join(root, 'src', file), 'utf8')),
    )
    .map((file) => `src/${file.split(path.sep).join('/')}`)
    .concat(pgliteProcessFiles);
}

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
    // The scale-out test needs PostgreSQL and Redis, and the statement counts node-postgres (`*.pg.test.ts`):
    // they run in the PostgreSQL pass (TEST_DATABASE_URL) only.
    exclude: onPostgres
      ? [
          '**/node_modules/**',
          ...engineIndependentFiles().filter((file) => !/\.pg(-redis)?\.test\.ts$/.test(file)),
        ]
      : ['**/node_modules/**', 'src/**/*.pg-redis.test.ts', 'src/**/*.pg.test.ts'],
    globalSetup: ['./src/test/global-setup.ts'],
    // Lowers the password hash cost (see setPasswordHashCostForTests).
    setupFiles: ['./src/test/setup.ts'],
    // A fresh process per file spent more CPU importing Fastify, drizzle and PGlite than most files spend
    // testing. Each file still builds its own app on its own cloned database and closes it; the server
    // keeps no module state that a file could leak into the next one.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
