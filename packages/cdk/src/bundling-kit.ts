/**
 * `@mcp-lambda/cdk/bundling`: the esbuild settings the functions are deployed with, for builds outside the CDK, so
 * what the template's bundle tests and benchmarks build is what the stack deploys.
 */
// ## Bundling settings (experimental)
export {
  esbuildOptions,
  ESM_REQUIRE_BANNER,
  EXTERNAL_MODULES,
  FUNCTION_ENTRIES,
  NODE_TARGET,
  nodeOptionsFor,
} from './bundling.ts';
