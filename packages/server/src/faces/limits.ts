/**
 * `@mcp-lambda/server/limits`: the platform's limits (Lambda, API Gateway) and the defaults the server, the
 * configuration and the CDK constructs agree on. Audience: the infrastructure (the constructs, the CDK app, the local
 * runtime) and whoever sizes a deployment. Stable.
 */

// ## Limits and defaults (stable)
export {
  DEFAULT_TOOL_TIMEOUT_MS,
  Defaults,
  MAX_JSON_DEPTH,
  OutputLimits,
  Platform,
  Ranges,
  TaskLimits,
} from '../limits.ts';
