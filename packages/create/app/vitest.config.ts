import { defineConfig } from 'vitest/config';

/** The app's own tests (test/app): its tools, its function entries, its stack. A synth bundles, hence the timeouts. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
