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
  /**
   * API Gateway REST APIs stream a response (integration `ResponseTransferMode: STREAM`) for at most 15 minutes, the
   * longest a Lambda function runs anyway.
   */
  restStreamingMaxSeconds: 900,
  /** A Regional REST API closes a streamed response that sends nothing for 5 minutes (edge-optimized: 30 s). */
  restStreamingIdleSeconds: 300,
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
  /** How long a handshake-era session (`Mcp-Session-Id`) lives before its client must initialize again. */
  sessionTtlMs: 86_400_000,
  /** How often a call waiting for the client's answer reads the call state's table (MCP_ASK_POLL_INTERVAL_MS). */
  askPollIntervalMs: 250,
  /**
   * While a streamed response is open, a keep-alive comment goes out this often: well inside a REST API's 5-minute
   * idle limit, and rare enough to cost nothing.
   */
  streamHeartbeatMs: 60_000,
  /**
   * The `retry` a resumable stream tells its client (SEP-1699): how long it waits before it resumes a cut stream
   * with `GET` and `Last-Event-ID`.
   */
  streamRetryMs: 1_000,
  /**
   * A resumable stream open this long starts writing its events to the log as well: short calls write nothing, long
   * ones survive a broken connection nobody saw.
   */
  streamLogAfterMs: 10_000,
  /** How long a stream's log is served after its call's deadline: the time its client has to come back. */
  streamLogGraceMs: 5 * 60_000,
  /** Time kept back when large outputs may still have to be stored after the tool returns. */
  offloadReserveMs: 5_000,
  /**
   * Time kept back from the deadline for building and sending the answer: every outbound call (storage, the
   * companion function, the issuer) is aborted this long before the invocation would be stopped.
   */
  answerMarginMs: 1_000,
  /** Time limit of one MCP function invocation: under the HTTP API's 30 s so the gateway still gets the answer. */
  mcpFunctionTimeoutSeconds: 28,
  /** Time limit of the MCP function behind a streaming REST API: as long as the stream may last. */
  streamingFunctionTimeoutSeconds: Platform.restStreamingMaxSeconds,
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
  /** How long a task stays readable after it was created (TASKS_TTL_MS): the `ttlMs` every task promises. */
  taskTtlMs: 3_600_000,
  /** Poll interval suggested to clients in every task (`pollIntervalMs`, TASKS_POLL_INTERVAL_MS). */
  taskPollIntervalMs: 1_000,
  /** Time limit of the task worker function: Lambda's maximum, for tools that run for minutes. */
  workerFunctionTimeoutSeconds: 900,
  /** Memory of the task worker function in MB. */
  workerMemoryMb: 1024,
  /** Port of `npm start`. */
  localPort: 3000,
  /** CloudFormation stack name `cdk deploy` creates. */
  stackName: 'McpServer',
  /** API stage: `$default` serves the endpoint at the root of the API URL, where RFC 9728 metadata must live. */
  stageName: '$default',
  /** Stage of the streaming REST API, which has no `$default`: its URL is `https://…/prod/mcp`. */
  restStageName: 'prod',
  /** Lowest level the functions log (Lambda's log controls and `jsonLogger`, through `POWERTOOLS_LOG_LEVEL`, agree on it); DEBUG also turns on source-mapped stack traces. */
  logLevel: 'INFO',
  /** Length of one alarm evaluation period, in minutes. */
  alarmPeriodMinutes: 5,
  /** Function errors or API 5xx answers in one period that raise an alarm: any is worth a look. */
  alarmErrorThreshold: 1,
  /** The p99 duration alarm fires above this share of the function's time limit, before calls are cut off. */
  alarmDurationRatio: 0.8,
  /** The resource scope the authorization bridge grants and the MCP function requires, with the default Cognito. */
  bridgeScope: 'mcp',
  /** CloudWatch namespace of the per-tool metrics (MCP_METRICS_NAMESPACE; the stack adds its name: `MCP/<stack>`). */
  metricsNamespace: 'MCP',
  /** The per-tool error alarm fires when more than this share of a tool's calls fail in a period (both kinds). */
  toolErrorRateThreshold: 0.05,
  /** ...and only with at least this many calls in the period, so one failed call of a quiet tool does not page. */
  toolErrorAlarmMinCalls: 10,
  /**
   * AWS WAF rate-based rule: requests one client IP may send in 5 minutes (10 a second on average, a fifth of
   * the stage's default steady rate); hosted connectors share a few egress addresses, so raise it for them.
   */
  wafRateLimit: 3_000,
  /**
   * Longest an accepted access token may still be valid, in seconds (MCP_AUTH_MAX_TOKEN_LIFETIME_SECONDS): a day,
   * well above what issuers hand out (minutes to hours), so a token minted to live for years is refused.
   */
  maxTokenLifetimeSeconds: 86_400,
} as const;

/**
 * A tool's default time budget: whatever the MCP function's time limit leaves after the offload reserve, so the
 * default really applies (a tool's `timeoutMs` or MCP_TOOL_TIMEOUT_MS may lower it).
 */
export const DEFAULT_TOOL_TIMEOUT_MS = Defaults.mcpFunctionTimeoutSeconds * 1000 - Defaults.offloadReserveMs;

/**
 * Deepest nesting of arrays and objects in any JSON the server reads from a client (a message, an answer, a
 * registration, a stored document it selects from), the message itself being level 1. Deeper JSON is refused where
 * it is parsed, so no recursive walk (size checks, trimming, digests, schema validation, serialization) can overflow
 * the stack. Real arguments nest a handful of levels; parsers that bound depth allow 64 (.NET's System.Text.Json) to
 * 128 (serde_json), Ruby's JSON and protobuf's JSON reader 100, as here. Walks this deep cost a few hundred stack
 * frames, far from V8's limit (`JSON.stringify` fails at a few thousand levels).
 */
export const MAX_JSON_DEPTH = 100;

/** Ranges configuration accepts. */
export const Ranges = {
  maxBodyBytes: { min: 1 * KiB, max: Platform.lambdaPayloadBytes },
  toolTimeoutMs: { min: 100, max: 900_000 },
  pageSize: { min: 1, max: 1000 },
  listCacheTtlMs: { min: 0, max: 86_400_000 },
  /** Above 1 MiB a block kept inline could no longer fit Lambda's response once escaped. */
  offloadThresholdBytes: { min: 1, max: 1 * MiB },
  offloadTtlDays: { min: 1, max: 365 },
  maxTokenLifetimeSeconds: { min: 60, max: 31_536_000 },
  memoryMb: { min: 128, max: 10_240 },
  /** A task must outlive the longest worker run (15 minutes) and the client's last poll; at most 30 days. */
  taskTtlMs: { min: 16 * 60_000, max: 30 * 86_400_000 },
  taskPollIntervalMs: { min: 100, max: 60_000 },
  askPollIntervalMs: { min: 20, max: 5_000 },
  /** 0 logs every resumable stream from its first event; past the longest invocation it would never start. */
  streamLogAfterMs: { min: 0, max: 900_000 },
  sessionTtlMs: { min: 60_000, max: 30 * 86_400_000 },
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
  /**
   * Page size of `read_output`, measured as parts are (doubly escaped): half the offload threshold, so a page and
   * its summary are never stored themselves (for thresholds of 1 KiB and more), within these bounds; above 64 KiB a
   * page stops being a small bite for the model.
   */
  minPageBytes: 512,
  maxPageBytes: 64 * KiB,
  /** Largest output `read_output` parses whole to select JSON (parsing takes several times the size in memory). */
  maxParsedBytes: 8 * MiB,
  /** Largest CSV record `read_output` holds while it scans for rows (a quoted field may span many lines). */
  maxCsvRecordBytes: 1 * MiB,
  /**
   * Time a scan of a stored output (a search, CSV rows, lines of an output without line counts) may take before it
   * answers with what it has: well inside the companion function's 10 s.
   */
  scanBudgetMs: 6_000,
} as const;

/**
 * Numbers of the tasks extension (`packages/server/src/tasks/`): how a task record stays within one DynamoDB item (400 KB) and how
 * a worker that stops without finishing is noticed.
 */
export const TaskLimits = {
  /** Serialized size a task record may reach: DynamoDB's 400 KB item limit less room for the key attributes. */
  maxRecordBytes: 350_000,
  /** Arguments of a call that runs as a task, serialized: they are kept in the record for every round. */
  maxArgumentsBytes: 64 * KiB,
  /** Inline content of a task's result; the offload policy stores and links anything beyond it. */
  maxInlineResultBytes: 192 * KiB,
  /** A running task's worker renews its lease this often (and notices a cancellation). */
  heartbeatMs: 5_000,
  /** A working task whose lease has not been renewed for this long is reported failed: its worker stopped. */
  leaseMs: 30_000,
  /**
   * How long a new task may wait for its worker to start. Above the worker's maximum event age (60 s, the least
   * Lambda allows), after which an undelivered start is dropped, never run late.
   */
  startLeaseMs: 90_000,
  /** Most time a worker keeps for recording the outcome after the tool's budget ends. */
  workerReserveMs: 10_000,
} as const;
