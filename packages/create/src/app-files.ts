/**
 * Which files of the mcp-lambda repository make an app. The repository's root is the reference app, so the app a
 * user gets is a copy of the root's own files, not a second set kept beside them: the paths below are copied as
 * they are, except the few a transform writes for the app (transforms.ts). Everything else at the root serves the
 * repository only (its packages, its documentation, its benchmark and conformance tiers, its release).
 */

/** Root files and folders copied into the app (folders whole), in the repository's own layout. */
export const APP_PATHS = [
  'src',
  'functions',
  'infra',
  'test/app',
  'cdk.json',
  'tsconfig.json',
  'tsconfig.views.json',
  '.gitignore',
  '.nvmrc',
  'package.json',
] as const;

/** App files written by a transform of the root's file instead of copied (transforms.ts). */
export const TRANSFORMED = [
  'package.json',
  'tsconfig.json',
  'tsconfig.views.json',
  'cdk.json',
  'infra/README.md',
] as const;

/**
 * Files only the app has, kept in this package's `app/` folder: its README (the root's is the repository's), and
 * its test configuration (the root's resolves the packages to their sources).
 */
export const APP_ONLY = ['README.md', 'vitest.config.ts'] as const;

/** Root entries that serve the repository only, each never copied into an app. */
export const REPOSITORY_ONLY = [
  '.changeset',
  '.ci',
  '.github',
  '.npmrc',
  '.prettierignore',
  '.prettierrc.json',
  'BENCHMARKS.md',
  'eslint.config.js',
  'knip.config.ts',
  'LICENSE',
  'README.md',
  'docs',
  'packages',
  'release',
  'package-lock.json',
  'vitest.config.ts',
  'test/api',
  'test/bench',
  'test/conformance',
  'test/e2e',
  'test/infra',
  'test/integration',
  'test/interop',
  'test/registry',
  'test/soak',
  'test/stress',
  'test/support',
  'test/unit',
] as const;

/**
 * npm never packs a file named `.gitignore` (it would ignore the package's own files), so the template keeps it
 * under this name and the scaffolder writes it back.
 */
export const PACKED_NAMES: Readonly<Record<string, string>> = { '.gitignore': 'gitignore' };

/** The root's scripts an app keeps (the others run the repository's tiers, benchmarks and release). */
export const APP_SCRIPTS = [
  'prestart',
  'start',
  'test',
  'typecheck',
  'synth',
  'deploy',
  'view',
  'signout',
  'local-user',
  'generate',
  'generate:views',
  'load',
] as const;

/** The packages the deployed functions import: the app's dependencies. */
export const APP_DEPENDENCIES = ['@mcp-lambda/bridge', '@mcp-lambda/server', 'ajv'] as const;

/**
 * What the app's CDK app, tests and scripts need: the constructs and the dev tools, the CDK and its checks, esbuild
 * (local, or the CDK bundles in Docker), tsx (cdk.json runs infra/app.ts with it), the type checker, the test runner.
 */
export const APP_DEV_DEPENDENCIES = [
  '@mcp-lambda/cdk',
  '@mcp-lambda/dev',
  '@types/aws-lambda',
  '@types/node',
  'aws-cdk',
  'aws-cdk-lib',
  'cdk-nag',
  'constructs',
  'esbuild',
  'tsx',
  'typescript',
  'vitest',
] as const;

/** The tool an app made with `--no-examples` keeps: the smallest, with no view and no storage. */
export const KEPT_TOOL = { file: 'ping.ts', name: 'ping' } as const;
