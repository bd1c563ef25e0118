/**
 * How the Lambda functions are bundled, in one place: the CDK stack (BundledFunction) and the benchmarks both use
 * these settings, so the artifact that is measured and tested is the artifact that is deployed.
 */
import { APP_LAYOUT, esbuildConditions } from '@mcp-lambda/server/build';
import { startupChunk } from './startup-chunk.ts';

/**
 * The app's root folder: entries are relative to it, and bundling runs in it. The CDK CLI runs the app where its
 * cdk.json is, and the tests run from there too; this package may sit anywhere in node_modules.
 */
export const PROJECT_ROOT = process.cwd();

/** Entry points of the deployable functions, relative to the app's folder (the app's layout: `APP_LAYOUT`). */
export const FUNCTION_ENTRIES = {
  mcp: APP_LAYOUT.functions.mcp,
  mcpStreaming: APP_LAYOUT.functions.mcpStreaming,
  resources: APP_LAYOUT.functions.companion,
  authorization: APP_LAYOUT.functions.authorization,
  worker: APP_LAYOUT.functions.worker,
} as const;

/**
 * Node.js major version the functions target: the Lambda runtime (`LAMBDA_RUNTIME` in
 * bundled-function.ts, a test checks they agree) and `.nvmrc` name the same major.
 */
export const NODE_TARGET = 'node22';

/**
 * NODE_OPTIONS of a function whose log level is DEBUG: stack traces in logs point at the TypeScript sources through
 * the source maps. Only then: Node reads and parses the map of every module it loads when this flag is on, about 5 ms
 * of a 10 ms cold start; at other levels stack traces name the minified `index.mjs` (line and column), which the
 * `.map` file deployed beside it resolves offline. The maps carry no `sourcesContent`, so they stay small.
 */
const DEBUG_NODE_OPTIONS = '--enable-source-maps';

/** NODE_OPTIONS of a function at `logLevel`: source-mapped stack traces at DEBUG, none of their start-up cost otherwise. */
export function nodeOptionsFor(logLevel: string): string | undefined {
  return logLevel === 'DEBUG' ? DEBUG_NODE_OPTIONS : undefined;
}

/**
 * ESM bundles that include CommonJS dependencies need `require`; this banner provides it (aws-cdk-lib docs,
 * NodejsFunction "ESM"). It takes `createRequire` from `process.getBuiltinModule` rather than an `import` of
 * `module`: an ESM import of a builtin builds its namespace by reading every export, which runs the builtin's lazy
 * getters (`module` loads its source-map support), about 1.5 ms of every cold start, in every chunk.
 */
export const ESM_REQUIRE_BANNER =
  "const require=process.getBuiltinModule('module').createRequire(import.meta.url);";

/**
 * Kept out of the bundles: the AWS SDK v3 ships with the Lambda Node.js runtime (and is loaded lazily, only on the
 * paths that talk to S3, Lambda, KMS, DynamoDB or Secrets Manager); ajv's compiler is replaced by validators generated at build time
 * (`npm run generate`), so the deployed function never compiles a schema.
 */
export const EXTERNAL_MODULES = ['@aws-sdk/*', 'ajv/dist/2020.js'];

/**
 * Where the chunks of a function live, beside its `index.mjs`. Code a function needs only on some requests (storing
 * large outputs, tasks, OAuth, each tool's validators, …) sits behind `import()`; esbuild's code splitting puts it in
 * its own chunk, so a cold start loads and compiles only what the first request needs, and the start-up code stays
 * in one chunk (`startup-chunk.ts`).
 */
const CHUNK_NAMES = 'chunks/[name]-[hash]';

/**
 * Options for a direct `esbuild.build()` call that match the stack's bundling: `outdir` receives `index.mjs` (the
 * handler module Lambda loads), its source map, and the lazily loaded chunks. They hold a plugin, so they work with
 * `build()`, not `buildSync()` (`bundle-command.ts` runs them for the CDK's synchronous local bundling).
 */
export function esbuildOptions(entry: string, outdir: string) {
  return {
    entryPoints: { index: entry },
    outdir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: CHUNK_NAMES,
    bundle: true,
    platform: 'node' as const,
    target: NODE_TARGET,
    format: 'esm' as const,
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    treeShaking: true,
    mainFields: ['module', 'main'],
    // This repository bundles the packages' sources, as its tests run them; an app bundles their built files.
    ...esbuildConditions(),
    external: EXTERNAL_MODULES,
    banner: { js: ESM_REQUIRE_BANNER },
    metafile: true,
    logLevel: 'warning' as const,
    plugins: [startupChunk(entry)],
  };
}

/**
 * What runs before the MCP function (and the task worker, which bundles the same tools) is bundled: the app's
 * generated code (`mcp-lambda-dev generate`: the precompiled tool validators and the views), so a bundle can never
 * carry stale ones. `npx --no` runs the app's own @mcp-lambda/dev, also when the CDK CLI was not started by npm.
 */
export const GENERATE_COMMANDS = ['npx --no mcp-lambda-dev generate'] as const;
