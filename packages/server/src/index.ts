/**
 * The public surface of the template for an MCP function: everything it (and a template user) may import. Deep
 * imports are internal and may change; a test keeps `functions/` and `packages/dev/src/local` on the public modules.
 *
 * Two concerns have public modules of their own, because a bundle splits code into chunks by what is reachable
 * through static imports, not by what is used: anything this module re-exported would sit in every function's
 * start-up graph whenever a lazily loaded chunk (OAuth verification, a tool's validator) shares code with it.
 * - packages/bridge/src/index.ts: the authorization bridge (its function, and `npm start` with OAuth); jose and the
 *   bridge's modules then never reach the MCP function's bundle.
 * - packages/dev/src/local/index.ts: the local server, embedded S3 and local OAuth setup of `npm start` and the tests; never
 *   deployed.
 * - packages/server/src/tasks/index.ts: the task worker (its function); the MCP function loads the tasks extension on first use.
 */

// Tools, prompts and client input: what a template user writes.
export {
  defineTool,
  ToolError,
  type StoreRequest,
  type TaskSupport,
  type ToolContext,
  type ToolDefinition,
  type ToolReturn,
  type ToolSpec,
} from './tools/define.ts';
export { definePrompt, type PromptContext, type PromptDefinition } from './prompts/define.ts';
export {
  inputRequired,
  InputRequired,
  type InputRequest,
  type InputResponses,
} from './input/input-required.ts';
export {
  streamedBytes,
  streamedText,
  StreamedContent,
  type StreamedOptions,
  type StreamSource,
} from './tools/streamed.ts';
export type { PrecompiledValidators, Validator } from './tools/validation.ts';
export {
  observeAll,
  type ToolCallObserver,
  type ToolCallOutcome,
  type ToolCallRecord,
} from './tools/observer.ts';
export { isProtocolError, ToolMetrics, toolMetricValues, type MetricValue } from './tools/tool-metrics.ts';

// The server and its configuration.
export { createMcpServer, DEFAULT_TRANSPORT, type McpServer, type McpServerOptions } from './server.ts';
export type { Transport, TransportOptions } from './http/transport.ts';
export { CORS_MAX_AGE_SECONDS, isOriginAllowed, MCP_CORS_HEADERS } from './http/origin.ts';
export {
  loadConfig,
  type AuthConfig,
  type Config,
  type OffloadConfig,
  type ToolMetricsConfig,
} from './config.ts';
export { DEFAULT_TOOL_TIMEOUT_MS, Defaults, OutputLimits, Platform, Ranges, TaskLimits } from './limits.ts';
export {
  jsonLogger,
  loadLogLevel,
  LOG_LEVELS,
  silentLogger,
  type JsonLoggerOptions,
  type Logger,
  type LogLevel,
} from './log.ts';
export type { InstrumentClient } from './instrument.ts';

// Resources.
export { staticResources, type StaticResource, type TemplatedResource } from './resources/static.ts';
export type { ResourceContext, ResourceProvider, ResourceReadResult } from './resources/provider.ts';

// Large outputs: the offloader (write side), the readers (in-process and through the companion function).
// The offloader's writing code loads on first need (lazy-offloader.ts says why); its types are the offloader's.
export { createOffloader } from './outputs/lazy-offloader.ts';
export type { OffloadContext, OffloaderOptions, ResultOffloader } from './outputs/offloader.ts';
export { storedOutputs, type StoredOutputsOptions } from './outputs/reader.ts';
export { storedOutputPages, type PagerOptions } from './outputs/paging/pager.ts';
export type { OutputPage, OutputPager, PageOutcome, PageQuery } from './outputs/paging/page.ts';
export { READ_OUTPUT_TOOL } from './outputs/read-tool.ts';
export {
  remoteStoredOutputs,
  type InvokeCompanion,
  type RemoteStoredOutputsOptions,
} from './outputs/companion/client.ts';
export { createStoredReadHandler } from './outputs/companion/handler.ts';
export type { StoredReadRequest, StoredReadResponse } from './outputs/companion/contract.ts';
export type { StoredPageRequest, StoredPageResponse } from './outputs/companion/page-contract.ts';
export { lambdaInvoker, type LambdaInvokerOptions } from './outputs/companion/lambda-invoker.ts';

// Storage.
export {
  StorageError,
  type ObjectAttributes,
  type RangeReader,
  type StorageReader,
  type StorageWriter,
  type StoredObject,
  type StoredRange,
} from './storage/storage.ts';
export { s3Storage, type S3StorageOptions } from './storage/s3.ts';
export { s3RangeReader } from './storage/s3-ranges.ts';
export { memoryStorage } from './storage/memory.ts';

// Tasks (the io.modelcontextprotocol/tasks extension): the store and how runs reach a worker. The worker itself has
// its own public module, packages/server/src/tasks/index.ts (its run code stays out of the MCP function's start-up graph).
export type { TasksOptions } from './tasks/runtime.ts';
export type { TaskStore } from './tasks/store.ts';
export { memoryTaskStore } from './tasks/memory-store.ts';
export { dynamoTaskStore, TaskTableAttributes, type DynamoTaskStoreOptions } from './tasks/dynamodb-store.ts';
export { lambdaTaskLauncher, type LambdaTaskLauncherOptions } from './tasks/launchers.ts';
export type { TaskJob, TaskLauncher } from './tasks/job.ts';
export {
  TASKS_EXTENSION,
  type DetailedTask,
  type Task,
  type TaskKey,
  type TaskRecord,
  type TaskStatus,
} from './tasks/types.ts';

// Authorization (OAuth resource server).
// Exported as a loader, not statically: a bundle splits the token verification code (jose) into a chunk of its
// own only if nothing imports it statically, and a function without authorization then never loads it.
export type { OAuthOptions } from './auth/oauth.ts';
export { loadOAuthAuthenticator } from './auth/authenticator.ts';
export type { Authentication, Authenticator, AuthRejection, AuthRequest } from './auth/authenticator.ts';
export type { ProtectedResourceMetadata } from './auth/metadata.ts';
export type { Principal } from './auth/principal.ts';

// Runtimes: the Lambda adapters (buffered and response streaming). The local server, embedded S3 and local OAuth
// setup of `npm start` have their own public module, packages/dev/src/local/index.ts (see the top of this file).
export { createLambdaHandler, createProxyLambdaHandler } from './lambda/adapter.ts';
export { createStreamingLambdaHandler, type StreamingEvent } from './lambda/streaming.ts';
export {
  lambdaStreamingRuntime,
  portableStreamingRuntime,
  PRELUDE_DELIMITER,
  type HttpResponsePrelude,
  type LambdaResponseStream,
  type LambdaStreamingRuntime,
  type StreamingHandler,
} from './lambda/stream-runtime.ts';
export type {
  HttpRequest,
  HttpResponse,
  InvocationContext,
  StreamedHttpResponse,
  StreamingInvocationContext,
} from './http/types.ts';

// Wire types, named as in the specification schema.
export type {
  Annotations,
  AudioContent,
  BaseMetadata,
  BlobResourceContents,
  CacheHint,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  Icons,
  ImageContent,
  Implementation,
  JSONObject,
  JSONValue,
  JsonSchema,
  LoggingLevel,
  Prompt,
  PromptArgument,
  PromptMessage,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  Role,
  ServerCapabilities,
  TextContent,
  TextResourceContents,
  Tool,
  ToolAnnotations,
} from './protocol/types.ts';
export type { Era } from './protocol/versions.ts';
