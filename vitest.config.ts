import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // Every temporary file of the run (cloud assemblies, bundles, local S3 data) lands in one folder removed at the end.
    globalSetup: ['test/support/temp-dir.ts'],
    testTimeout: 30_000,
    // expect.poll waits for what a page or a server shows next. Its default of 1 s races a busy machine (CI beside
    // the stress step): a poll only gives up later on a real failure, it never passes sooner.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
