/**
 * `@mcp-lambda/server/lambda`: what a Lambda function's entry is wired with: the server and its options, the
 * configuration it reads from the environment, the adapters (Lambda buffered and streaming, Fetch) and their neutral
 * HTTP types, the logger, observers and tool metrics, the OAuth resource server, the offloader and the readers of
 * stored outputs, CORS; and, built of all these from the environment, each function's handler in one call. Audience:
 * the template's `functions/*` entries and the local runtime, not tool authors. Each group is marked stable or
 * experimental.
 */

// ## The server and its options (stable)
export { createMcpServer, DEFAULT_TRANSPORT, type McpServer, type McpServerOptions } from '../server.ts';
export type { PrecompiledValidators, Validator } from '../tools/validation.ts';
export type { Transport } from '../http/transport.ts';
export type { TransportOptions } from '../wire/transport-options.ts';

// ## Options of the experimental features: sessions, tasks, approval (experimental)
export type { SessionOptions } from '../sessions/sessions.ts';
export type { TasksOptions } from '../tasks/runtime.ts';
export type { ApprovalOptions } from '../approval/define.ts';

// ## Configuration from the environment (stable)
export {
  loadConfig,
  type AskingConfig,
  type AuthConfig,
  type Config,
  type SessionConfig,
  type OffloadConfig,
  type ToolMetricsConfig,
} from '../config.ts';

// ## Logging (stable)
export {
  jsonLogger,
  loadLogLevel,
  LOG_LEVELS,
  silentLogger,
  type JsonLoggerOptions,
  type LogLevel,
} from '../log.ts';

// ## Tool call observers and metrics (experimental)
export {
  observeAll,
  type ToolCallObserver,
  type ToolCallOutcome,
  type ToolCallRecord,
} from '../tools/observer.ts';
export { isProtocolError, ToolMetrics, toolMetricValues, type MetricValue } from '../tools/tool-metrics.ts';

// ## Cross-origin requests (stable)
export { CORS_MAX_AGE_SECONDS, isOriginAllowed, MCP_CORS_HEADERS } from '../http/origin.ts';

// ## Large outputs: the offloader (write side), the readers (in-process and through the companion) (stable)
export { createOffloader } from '../outputs/lazy-offloader.ts';
export type { OffloadContext } from '../outputs/offload-context.ts';
export type { OffloaderOptions, ResultOffloader } from '../outputs/offloader.ts';
export type { StoredOutputsOptions } from '../outputs/reader.ts';
export { remoteStoredOutputs, storedOutputs } from '../outputs/lazy-readers.ts';
export { storedOutputPages, type PagerOptions } from '../outputs/paging/pager.ts';
export type { OutputPage, OutputPager, PageOutcome, PageQuery } from '../outputs/paging/page.ts';
export { READ_OUTPUT_TOOL } from '../outputs/read-tool.ts';
export { DELETE_OUTPUT_TOOL } from '../outputs/delete-tool.ts';
export type { RemoteStoredOutputsOptions } from '../outputs/companion/ask.ts';
export { createStoredReadHandler } from '../outputs/companion/handler.ts';

// ## Authorization: the OAuth resource server (stable)
// A loader: a function without authorization never loads the token verification code (jose).
export type { OAuthOptions } from '../auth/oauth.ts';
export { loadOAuthAuthenticator } from '../auth/oauth-loader.ts';

// ## Runtimes: the Lambda adapters (buffered and response streaming) and the neutral HTTP types (stable)
export { createLambdaHandler, createProxyLambdaHandler } from '../lambda/adapter.ts';
export { createStreamingLambdaHandler, type StreamingEvent } from '../lambda/streaming.ts';
export type { StreamingHandler } from '../lambda/stream-runtime.ts';
export type {
  HttpRequest,
  HttpResponse,
  InvocationContext,
  StreamedHttpResponse,
  StreamingInvocationContext,
} from '../wire/types.ts';

// ## A function's handler built from the environment: the MCP function (buffered and streaming), the companion (experimental)
export { createMcpFunction, type McpFunctionOptions } from '../function/mcp-function.ts';
export { createStreamingMcpFunction } from '../function/mcp-streaming-function.ts';
export { createCompanionFunction } from '../function/companion-function.ts';
// A loader: a function without MCP_TRACING loads no OpenTelemetry code.
export { loadTelemetry, type Telemetry, type TracingMode } from '../telemetry/loader.ts';
export { tracingMode } from '../telemetry/telemetry.ts';

// ## The server as a Fetch handler (experimental)
export { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '../fetch/handler.ts';
