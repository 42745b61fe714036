import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Files that replace a module with `vi.mock` need a fresh module graph: in a reused worker an earlier
 * file has already loaded the real module. They run in the isolated `web-mocked` project (vitest.config.ts
 * at the repository root); every other file runs in a reused worker.
 */
const filesThatMock = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .filter((file) => /\bvi\.(do)?mock\(/.test(readFileSync(path.join(root, 'src', file), 'utf8')))
  .map((file) => `src/${file.split(path.sep).join('/')}`);

/**
 * Files that fail after certain others in a shared worker although they pass alone, for a reason not yet
 * found: the Undo focus test never saw its refreshed list after eight other files had run in the worker
 * (reproduced with `--no-file-parallelism` on those nine; no single one of them, nor either half, causes
 * it). They run isolated until the leak is found.
 */
const filesThatNeedAFreshWorker = ['src/features/activity/components/transaction-history.test.tsx'];

export const mockingFiles = [...filesThatMock, ...filesThatNeedAFreshWorker];

export default defineProject({
  plugins: [react()],
  resolve: {
    alias: {
      '@haversack/contracts': fileURLToPath(
        new URL('../../packages/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    name: 'web',
    root,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', ...mockingFiles],
    setupFiles: [fileURLToPath(new URL('./src/test/setup.ts', import.meta.url))],
    restoreMocks: true,
    // One worker process runs many files: a fresh process per file spent more time importing React,
    // Mantine and the DOM than the tests took. setup.ts resets the stores, storage, timers, globals and
    // the rendered DOM around every test, and restoreMocks puts spies back. (Files with vi.mock: above.)
    isolate: false,
    // Typing whole forms through user-event takes seconds on a busy 2-core machine; 5 s timed tests out that
    // had nothing wrong with them. A broken assertion still fails at once.
    testTimeout: 20_000,
  },
});
