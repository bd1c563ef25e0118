import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // Every temporary file of the run (cloud assemblies, bundles, local S3 data) lands in one folder removed at the end.
    globalSetup: ['test/support/temp-dir.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
