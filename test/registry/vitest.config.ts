import { defineConfig } from 'vitest/config';
import root from '../../vitest.config.ts';

/**
 * The registry tier (`npm run test:registry`, CI runs it after `npm test`): the repository's settings, with this
 * folder's tests only, which `npm test` leaves out (they publish every package and install an app from a registry).
 */
export default defineConfig({
  ...root,
  test: { ...root.test, include: ['test/registry/**/*.test.ts'], exclude: [] },
});
