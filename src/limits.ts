/**
 * Every limit and default of the template in one place: configuration (`config.ts`), the server, the local server
 * and the CDK constructs read them from here, so a number is changed once. Platform limits are named after the
 * platform and cite where they come from; our own defaults say why they are what they are.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/** Platform limits we design around (AWS documentation, checked November 2026). */
export const Platform = {
  /** API Gateway HTTP APIs stop waiting for an integration after 30 s (fixed; REST APIs allow 29 s by default). */
  httpApiIntegrationTimeoutSeconds: 30,
  /** API Gateway refuses request bodies above 10 MB before Lambda runs. */
  gatewayBodyBytes: 10 * MiB,
  /** Largest payload a synchronous Lambda invocation returns (and accepts): 6 MB. */
  lambdaPayloadBytes: 6 * MiB,
} as const;

/** Defaults of the MCP endpoint, as the README's configuration table lists them. */
export const Defaults = {
  /** The one MCP endpoint path (MCP_PATH). */
  mcpPath: '/mcp',
  serverName: 'mcp-lambda-template',
  serverVersion: '0.1.0',
  /** Tool arguments are small: 1 MiB is plenty and cheap to reject (MCP_MAX_BODY_BYTES). */
  maxBodyBytes: 1 * MiB,
  /** Items per page of every list method (MCP_PAGE_SIZE). */
  pageSize: 100,
  /** Cache hint of list results and `server/discover` in 2026-07-28 (MCP_LIST_CACHE_TTL_MS). */
  listCacheTtlMs: 300_000,
  /** How long a sealed `requestState` stays valid: the time a user has to answer an input request. */
  requestStateTtlMs: 15 * 60_000,
  /** Time kept back from the invocation deadline for answering. */
  reserveMs: 2_000,
  /** Time kept back when large outputs may still have to be stored after the tool returns. */
  offloadReserveMs: 5_000,
  /** Time limit of one MCP function invocation: under the HTTP API's 30 s so the gateway still gets the answer. */
  mcpFunctionTimeoutSeconds: 28,
  /** Time limit of the companion resources function; the MCP function waits for it. */
  resourcesFunctionTimeoutSeconds: 10,
  /** Memory of the MCP function in MB (CPU scales with it). */
  mcpMemoryMb: 1024,
  /** Memory of the companion resources function in MB. */
  resourcesMemoryMb: 512,
  /** A content block above this many bytes is stored and linked (OFFLOAD_THRESHOLD_BYTES): about 8k tokens. */
  offloadThresholdBytes: 32 * KiB,
  /** Key prefix of stored outputs in the bucket (OFFLOAD_PREFIX). */
  offloadPrefix: 'outputs/',
  /** Days stored outputs live before the bucket's lifecycle rule deletes them (OFFLOAD_TTL_DAYS). */
  offloadTtlDays: 7,
  /** Days the log groups keep logs. */
  logRetentionDays: 30,
  /** What `cdk destroy` does with the bucket and log groups: a template is torn down and redeployed often. */
  removalPolicy: 'destroy' as 'destroy' | 'retain',
  /** API stage steady-state rate limit (requests per second) and burst. */
  throttleRateLimit: 50,
  throttleBurstLimit: 100,
  /** Port of `npm start`. */
  localPort: 3000,
  /** CloudFormation stack name `cdk deploy` creates. */
  stackName: 'McpServer',
  /** API stage: `$default` serves the endpoint at the root of the API URL, where RFC 9728 metadata must live. */
  stageName: '$default',
  /** Lowest level both functions log (Lambda's log controls and Powertools agree on it). */
  logLevel: 'INFO',
  /** Length of one alarm evaluation period, in minutes. */
  alarmPeriodMinutes: 5,
  /** Function errors or API 5xx answers in one period that raise an alarm: any is worth a look. */
  alarmErrorThreshold: 1,
  /** The p99 duration alarm fires above this share of the function's time limit, before calls are cut off. */
  alarmDurationRatio: 0.8,
  /** The one scope a Cognito issuer created by the stack grants for the MCP server. */
  cognitoScopeName: 'tools',
  /** Where a Cognito sign-in returns by default: the MCP Inspector's local callback. */
  cognitoCallbackUrl: 'http://localhost:6274/oauth/callback',
} as const;

/**
 * A tool's default time budget: whatever the MCP function's time limit leaves after the offload reserve, so the
 * default really applies (a tool's `timeoutMs` or MCP_TOOL_TIMEOUT_MS may lower it).
 */
export const DEFAULT_TOOL_TIMEOUT_MS = Defaults.mcpFunctionTimeoutSeconds * 1000 - Defaults.offloadReserveMs;

/** Ranges configuration accepts. */
export const Ranges = {
  maxBodyBytes: { min: 1 * KiB, max: Platform.lambdaPayloadBytes },
  toolTimeoutMs: { min: 100, max: 900_000 },
  pageSize: { min: 1, max: 1000 },
  listCacheTtlMs: { min: 0, max: 86_400_000 },
  /** Above 1 MiB a block kept inline could no longer fit Lambda's response once escaped. */
  offloadThresholdBytes: { min: 1, max: 1 * MiB },
  offloadTtlDays: { min: 1, max: 365 },
  memoryMb: { min: 128, max: 10_240 },
} as const;

/** Sizes the large-output feature works with (see `outputs/parts.ts` for how a part is measured). */
export const OutputLimits = {
  /** Largest tool result one response carries: Lambda's 6 MB less room for the API Gateway envelope. */
  maxResultBytes: Platform.lambdaPayloadBytes - 64 * KiB,
  /** Largest doubly escaped size of one stored part, so it fits one `resources/read` response. */
  partBudgetBytes: 5 * MiB,
  /** Most parts one output may be split into (the part number in a URI has at most three digits). */
  maxParts: 100,
  /** Inline content of one result, serialized: escaped again inside the Lambda response it still fits 6 MB. */
  maxInlineBytes: 1 * MiB,
  /** structuredContent an outputSchema makes mandatory, serialized. */
  maxRequiredStructuredBytes: 1 * MiB,
} as const;
