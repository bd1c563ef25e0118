import type { KnipConfig } from 'knip';

/**
 * knip (`npm run lint`, after eslint): no file nothing reaches, no dependency nothing imports, no export nothing
 * outside its file uses. A package's face (each `exports` entry of its package.json, bins too) is an entry knip
 * finds by itself, so what a face exports is public API and never reported. The entries listed here are the ones
 * knip cannot see: files a tool, a path or a URL names. Each suppression says why.
 */
const config: KnipConfig = {
  workspaces: {
    '.': {
      entry: [
        // The Lambda functions: the CDK constructs bundle them by path (APP_LAYOUT, FUNCTION_ENTRIES).
        'functions/**/*.ts',
        // The CDK app: cdk.json's `app` command runs it.
        'infra/app.ts',
        // Each view: `mcp-lambda-dev generate views` bundles src/views/<name>/main.ts for the browser.
        'src/views/*/main.ts',
        // `npm run bench`: test/support/on-lambda-node.ts starts it by path.
        'test/bench/run.ts',
        // The benchmark's child processes: test/bench/bundle.ts bundles them by path.
        'test/bench/children/*.ts',
        // Run by hand, as their usage lines say (a load report's screenshot, the memory soak).
        'test/support/report-screenshot.ts',
        'test/soak/memory-after-large-outputs.ts',
      ],
      // `npm run test:registry` runs vitest with this configuration (`--config`), which knip's script parser
      // does not follow.
      vitest: { config: ['vitest.config.ts', 'test/registry/vitest.config.ts'] },
      ignoreDependencies: [
        // Both conformance suites run by path (node_modules/<name>/dist/index.js, test/conformance/run.ts).
        '@modelcontextprotocol/conformance',
        '@modelcontextprotocol/conformance-next',
        // test/bench/views.ts bundles a source text that imports it (esbuild's stdin), the baseline view size.
        '@modelcontextprotocol/ext-apps',
      ],
    },
    'packages/cdk': {
      // bundled-function.ts hands esbuild this file by URL (`new URL(`./bundle-command${extension}`, …)`, .ts in
      // the repository, .js when built), which knip cannot resolve.
      entry: ['src/bundle-command.ts'],
      // An optional peer on purpose: only the `./testing` face imports vitest, and only apps that test with it
      // load that face.
      ignoreDependencies: ['vitest'],
    },
    'packages/dev': {
      // The view host's page: view-host/server.ts bundles it for the browser by URL, with its own extension.
      entry: ['src/view-host/page/main.ts'],
    },
    'packages/server': {
      // An optional peer on purpose: only the `./build` face (view and validator generation) imports esbuild,
      // and the deployed functions never load it.
      ignoreDependencies: ['esbuild'],
    },
    'packages/create': {
      // Files of the app the scaffolder writes, copied as they are: they belong to that app, not to this package.
      ignore: ['app/**'],
    },
  },
  // The openssl CLI makes the tests' throwaway certificates and keys: a system tool, no npm package.
  ignoreBinaries: ['openssl'],
};

export default config;
