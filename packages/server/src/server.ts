import type { Authenticator } from './auth/authenticator.ts';
import { createDispatcher } from './dispatcher.ts';
import type { ResultOffloader } from './outputs/offloader.ts';
import type { OutputPager } from './outputs/paging/page.ts';
import { READ_OUTPUT_TOOL, readOutputTool } from './outputs/read-tool.ts';
import { createRequestStateCodec } from './input/request-state.ts';
import { createTransport, type TransportOptions } from './http/transport.ts';
import type { CacheHint, Implementation, ServerCapabilities } from './protocol/types.ts';
import type { PromptDefinition } from './prompts/define.ts';
import type { ResourceProvider } from './resources/provider.ts';
import type { ToolDefinition } from './tools/define.ts';
import type { ToolCallObserver } from './tools/observer.ts';
import { ToolRegistry } from './tools/registry.ts';
import type { TasksOptions } from './tasks/runtime.ts';
import { taskLoader } from './methods/lazy-tasks.ts';
import { TASKS_EXTENSION } from './tasks/types.ts';
import { DEFAULT_TOOL_TIMEOUT_MS, Defaults } from './limits.ts';
import type { PrecompiledValidators } from './tools/validation.ts';

/** What a server is made of. Only `info` is required; every other field has a documented default. */
export interface McpServerOptions {
  /** serverInfo: name and version at least. */
  info: Implementation;
  /** Guidance for the model, sent in `initialize` / `server/discover`. */
  instructions?: string;
  tools?: readonly ToolDefinition[];
  resources?: readonly ResourceProvider[];
  prompts?: readonly PromptDefinition[];
  /** Advertise `logging` so tools' `ctx.notify` messages reach clients that accept SSE. Default false. */
  logging?: boolean;
  /** Advertise `completions` (prompt argument completion). Default false. */
  completions?: boolean;
  /** Items per page of every list method. Default 100. */
  pageSize?: number;
  /** Default time budget of one tool call in ms. Default `DEFAULT_TOOL_TIMEOUT_MS` (23,000). */
  toolTimeoutMs?: number;
  /** Time kept back from the invocation deadline for offloading and answering, in ms. Default 2,000 (5,000 with an offloader). */
  reserveMs?: number;
  /** Cache hint on list results and `server/discover` (2026-07-28). Default 5 minutes, public. */
  listCache?: CacheHint;
  /** Applied to every tool result (large outputs to storage). Default none. */
  offloader?: ResultOffloader;
  /**
   * Reads pages of stored outputs (`remoteStoredOutputs` through the companion function, or `storedOutputPages`
   * in-process). With an offloader too, the server registers the built-in `read_output` tool. Default none.
   */
  outputPages?: OutputPager;
  /** Register `read_output` when `offloader` and `outputPages` are both given. Default true. */
  readOutputTool?: boolean;
  /**
   * Key material (at least 16 bytes) sealing the `requestState` of multi round-trip requests (2026-07-28,
   * `inputRequired`). Every instance that may serve a retry needs the same value; default: a random key per
   * process, which suits local use and single-round tools only.
   */
  requestStateSecret?: string | Uint8Array;
  /** How long a sealed `requestState` stays valid, in ms: the time a user has to answer. Default 15 minutes. */
  requestStateTtlMs?: number;
  /** Validators generated at build time (`npm run generate`); schemas without one are compiled at first use. */
  validators?: PrecompiledValidators;
  /** HTTP transport rules. */
  http?: Partial<TransportOptions>;
  /**
   * The tasks extension (README "Tasks"): tools declaring `task` may then be answered with a task that a worker
   * runs for up to 15 minutes. Default none: every call answers in its request.
   */
  tasks?: TasksOptions;
  /**
   * Who may call: every request must then carry a valid access token (e.g. from `loadOAuthAuthenticator()`).
   * Default none: anyone who can reach the endpoint may call it (local development).
   */
  auth?: Authenticator;
  /**
   * Told about every answered call of a registered tool (name, outcome, duration, bytes stored): per-tool metrics.
   * Default none.
   */
  observer?: ToolCallObserver;
}

/** Transport defaults: the secure choice for each (no foreign origins, 1 MiB bodies). */
export const DEFAULT_TRANSPORT: TransportOptions = {
  path: Defaults.mcpPath,
  allowedOrigins: [],
  maxBodyBytes: Defaults.maxBodyBytes,
};

/** The tools the server brings itself: `read_output` when outputs are stored and their pages can be read. */
function builtInTools(options: McpServerOptions): ToolDefinition[] {
  const pager = options.outputPages;
  if (!options.offloader || !pager || options.readOutputTool === false) return [];
  if (options.tools?.some((t) => t.name === READ_OUTPUT_TOOL))
    throw new Error(
      `Tool "${READ_OUTPUT_TOOL}" is built in when outputs are offloaded: rename yours, or set readOutputTool: false`,
    );
  return [readOutputTool({ pager, thresholdBytes: options.offloader.thresholdBytes })];
}

/** Builds a stateless MCP server: a registry, a dispatcher and the HTTP transport in front of them. */
export function createMcpServer(options: McpServerOptions) {
  const builtIn = builtInTools(options);
  const tools = new ToolRegistry([...(options.tools ?? []), ...builtIn], {
    defaultTimeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    ...(options.validators ? { validators: options.validators } : {}),
  });
  const resources = options.resources ?? [];
  const prompts = options.prompts ?? [];
  // A stateless server cannot push list changes or subscriptions (mcp-checklist.md rule 12).
  const capabilities: ServerCapabilities = {
    tools: {},
    ...(resources.length ? { resources: {} } : {}),
    ...(prompts.length ? { prompts: {} } : {}),
    ...(options.logging ? { logging: {} } : {}),
    ...(options.completions ? { completions: {} } : {}),
    ...(options.tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
  };
  const dispatch = createDispatcher({
    info: options.info,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    capabilities,
    tools,
    resources,
    prompts,
    pageSize: options.pageSize ?? Defaults.pageSize,
    // Storing a large output takes S3 round trips after the tool returns: keep more time back when that can happen.
    reserveMs: options.reserveMs ?? (options.offloader ? Defaults.offloadReserveMs : Defaults.reserveMs),
    listCache: options.listCache ?? { ttlMs: Defaults.listCacheTtlMs, cacheScope: 'public' },
    ...(options.offloader ? { offloader: options.offloader } : {}),
    ...(builtIn.length ? { readTool: READ_OUTPUT_TOOL } : {}),
    ...(options.observer ? { observer: options.observer } : {}),
    ...(options.tasks
      ? {
          tasks: taskLoader(options.tasks, {
            tools,
            ...(options.offloader ? { offloader: options.offloader } : {}),
            ...(builtIn.length ? { readTool: READ_OUTPUT_TOOL } : {}),
          }),
        }
      : {}),
    requestState: createRequestStateCodec({
      ttlMs: options.requestStateTtlMs ?? Defaults.requestStateTtlMs,
      ...(options.requestStateSecret !== undefined ? { secret: options.requestStateSecret } : {}),
    }),
  });
  const http: TransportOptions = { ...DEFAULT_TRANSPORT, ...options.http };
  const handle = createTransport(
    {
      dispatch,
      paramHeadersOf: (name) => tools.paramHeaders(name),
      ...(options.auth ? { authenticator: options.auth } : {}),
    },
    http,
  );
  return { handle, dispatch, tools, capabilities, http };
}

export type McpServer = ReturnType<typeof createMcpServer>;
