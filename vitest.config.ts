import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Inside this repository the packages resolve to their TypeScript sources through the `@mcp-lambda/source` export
 * condition (each package's `exports`; `.npmrc` gives it to every npm script, tsconfig.json to the type checker), so
 * no test needs a build, and no test mixes a built copy of a module with its source. Published packages do not
 * carry it (release/pack.ts): elsewhere it selects nothing. The other two are what vitest resolves server code with
 * by default, which a list of one's own replaces.
 */
const SOURCE = '@mcp-lambda/source';
const conditions = [SOURCE, 'node', 'development|production'];
// The processes tests start (npm start, bundling, a task worker) resolve the same way, however vitest was started.
const nodeOptions = process.env.NODE_OPTIONS ?? '';
if (!nodeOptions.includes(`--conditions=${SOURCE}`))
  process.env.NODE_OPTIONS = `${nodeOptions} --conditions=${SOURCE}`.trim();

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // The registry tier publishes every package and installs an app from a registry: a run of its own in CI
    // (`npm run test:registry`, test/registry/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/registry/**'],
    // Every temporary file of the run (cloud assemblies, bundles, local S3 data) lands in one folder removed at the end.
    globalSetup: ['test/support/temp-dir.ts'],
    testTimeout: 30_000,
    // expect.poll waits for what a page or a server shows next. Its default of 1 s races a busy machine (CI beside
    // the stress step): a poll only gives up later on a real failure, it never passes sooner.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests wait on servers, child processes and timers more than they compute: two test files at a time even on
    // two cores (vitest's default is one fewer than the cores), which takes CI's \`npm test\` from 640 s to 415 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
