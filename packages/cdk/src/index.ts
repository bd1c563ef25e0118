/**
 * The public surface of the CDK constructs: one construct per deployable concern of an MCP endpoint, each with a
 * `Props` interface whose every field is documented with its default.
 */
// ## Constructs and bundling (experimental)
export { McpEndpoint } from './mcp-endpoint.ts';
export {
  MCP_API_KINDS,
  type McpApiKind,
  type McpDomainProps,
  type McpEndpointProps,
} from './endpoint/props.ts';
export { type McpAuthProps, type McpEndpointAuth, type McpOAuthProps } from './endpoint/auth-props.ts';
export type { McpApiProps } from './api-props.ts';
export { McpHttpApi, MCP_CORS_HEADERS, type McpHttpApiProps } from './mcp-http-api.ts';
export { McpRestApi, type McpRestApiProps } from './mcp-rest-api.ts';
export { McpMonitoring, type McpMonitoringProps, type MonitoredFunction } from './mcp-monitoring.ts';
export { type ApiStageMetrics, type ToolMetricsSource } from './monitoring-widgets.ts';
export { OutputBucket, type OutputBucketProps } from './output-bucket.ts';
export { TaskWorker, type TaskWorkerProps } from './task-worker.ts';
export { TransactionSearch, type TransactionSearchProps } from './transaction-search.ts';
export { SPAN_EXPORT_ACTIONS, XRAY_TRACES_ENDPOINT } from './span-export.ts';
export {
  CallStateTable,
  type CallStateTableProps,
  AskRendezvous,
  type AskRendezvousProps,
} from './call-state-table.ts';
export { SessionSecret, type SessionSecretProps } from './session-secret.ts';
export { AuthorizationApi, type AuthorizationApiProps } from './authorization-api.ts';
export {
  AuthorizationBridge,
  BRIDGE_ROUTES,
  type AuthorizationBridgeProps,
  type BridgeUpstream,
} from './authorization-bridge.ts';
export {
  CognitoIssuer,
  defaultDomainPrefix,
  domainPrefixProblem,
  type CognitoIssuerProps,
} from './cognito-issuer.ts';
export { ApiDomain, domainProblem, type ApiDomainProps, type HostedZoneRef } from './api-domain.ts';
export {
  ApiFirewall,
  BRIDGE_EXEMPTIONS,
  COMMON_RULE_SET_BODY_RULES,
  COMMON_RULE_SET_RULES,
  DEFAULT_COUNT_ONLY_RULES,
  type ApiFirewallProps,
} from './api-firewall.ts';
export {
  BundledFunction,
  FUNCTION_LOG_LEVELS,
  LAMBDA_RUNTIME,
  localBundling,
  type BundledFunctionProps,
  type FunctionLogLevel,
} from './bundled-function.ts';
export { isLogRetention, removalPolicyNamed, type RemovalPolicyName } from './defaults.ts';
// ## Settings from CDK context (experimental)
export {
  CONTEXT_KEYS,
  applyAuthDefault,
  readSettings,
  type AppSettings,
  type ContextKey,
} from './context/settings.ts';
export { ContextError } from './context/parsers.ts';
