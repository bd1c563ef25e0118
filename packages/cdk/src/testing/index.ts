/**
 * `@mcp-lambda/cdk/testing`: helpers for tests of CDK code: a fresh stack with the project's CDK context (from the
 * working directory's cdk.json) and readers of a synthesized template. Importing it points HOME and CDK_HOME at a
 * scratch folder of the test process.
 */
// ## The bridge's routes (experimental)
export { BRIDGE_ROUTE_KEYS } from './bridge-routes.ts';
// ## A scratch HOME and CDK_HOME for the test process (experimental)
export { SCRATCH_HOME } from './cdk-home.ts';
// ## Stacks with the project's CDK context (experimental)
export { CDK_JSON_CONTEXT, newStack } from './synth.ts';
// ## Reading a synthesized template (experimental)
export {
  type Resource,
  only,
  lambdaFunction,
  roleOf,
  logGroupArnOf,
  expectLeastPrivilege,
} from './template.ts';
