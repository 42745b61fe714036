import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import web, { mockingFiles } from './apps/web/vitest.config.ts';

/**
 * Files that take minutes, not seconds: they start first, so that neither worker is left with one of
 * them at the end while the other idles. Vitest orders by the durations of the last run when it has
 * them, but CI starts from a fresh clone with no such cache.
 */
const longFiles = [
  'server/src/main.test.ts',
  'server/src/fuzz/openapi-fuzz.test.ts',
  'server/src/plugins/rate-limit.test.ts',
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = longFiles.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? longFiles.length : index;
    };
    return sorted
      .map((spec, position) => ({ spec, position }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.position - b.position)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    projects: [
      'packages/contracts',
      'apps/server',
      'apps/web',
      // The web files that mock modules, each in a fresh worker (see apps/web/vitest.config.ts).
      {
        ...web,
        test: { ...web.test, name: 'web-mocked', isolate: true, include: mockingFiles, exclude: [] },
      },
    ],
    // Each server test file gets its own database; two workers keep a 2-core machine busy without thrashing.
    maxWorkers: 2,
    sequence: { sequencer: LongFilesFirst },
  },
});
