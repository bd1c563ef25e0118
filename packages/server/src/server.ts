import type { Authenticator } from './auth/authenticator.ts';
import { createDispatcher, type Dispatch } from './dispatcher.ts';
import type { ResultOffloader } from './outputs/offloader.ts';
import type { OutputPager } from './outputs/paging/page.ts';
import { READ_OUTPUT_TOOL, readOutputTool } from './outputs/read-tool.ts';
import { createTransport } from './http/transport.ts';
import type { TransportOptions } from './wire/transport-options.ts';
import type { CallState } from './call-state/stores.ts';
import { lazyHandshakeCallState, lazyRequestState } from './asking/lazy.ts';
import type { SessionOptions } from './sessions/sessions.ts';
import type { CacheHint, Implementation, ServerCapabilities } from './protocol/types.ts';
import type { PromptDefinition } from './prompts/define.ts';
import type { ResourceProvider } from './resources/provider.ts';
import type { ToolDefinition } from './tools/define.ts';
import type { ToolCallObserver } from './tools/observer.ts';
import { spannedTools, type Telemetry } from './telemetry/telemetry.ts';
import { ToolRegistry } from './tools/registry.ts';
import type { TasksOptions } from './tasks/runtime.ts';
import { taskLoader } from './methods/lazy-tasks.ts';
import { TASKS_EXTENSION } from './tasks/types.ts';
import { DEFAULT_TOOL_TIMEOUT_MS, Defaults } from './limits.ts';
import type { PrecompiledValidators } from './tools/validation.ts';
import { UI_EXTENSION, VIEW_MIME_TYPE, type ViewDefinition } from './contracts/view.ts';
import type { ApprovalOptions } from './approval/define.ts';
import { withApprovals } from './approval/tools.ts';
import { deleteOutputTool } from './outputs/delete-tool.ts';
import { collectViews, viewResources } from './views/resources.ts';

/** What a server is made of. Only `info` is required; every other field has a documented default. */
export interface McpServerOptions {
  /** serverInfo: name and version at least. */
  info: Implementation;
  /** Guidance for the model, sent in `initialize` / `server/discover`. */
  instructions?: string;
  tools?: readonly ToolDefinition[];
  resources?: readonly ResourceProvider[];
  prompts?: readonly PromptDefinition[];
  /**
   * Views (MCP Apps) to serve besides those the tools link with `view`, which are served without being named here
   * (docs/views.md). Any view makes the server declare the `io.modelcontextprotocol/ui` extension. Default none.
   */
  views?: readonly ViewDefinition[];
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
   * Register `delete_output` (deletes a caller's stored output once the person approves, docs/views.md) when
   * `offloader` and `outputPages` are both given, with the approval view that shows its proposals. Default none.
   */
  deleteOutputTool?: { view?: ViewDefinition };
  /**
   * How approvals of tools declaring `approval` are checked: the ledger of used approvals (share one between
   * instances, e.g. `dynamoApprovalLedger`) and the key signing proofs (default `requestStateSecret`, else a key
   * derived from `sessions.keys`). Default: this process's memory, which suits local use only.
   */
  approvals?: ApprovalOptions;
  /**
   * Key material (at least 16 bytes) sealing the `requestState` of multi round-trip requests (2026-07-28,
   * `inputRequired`, `ctx.elicit`): an override. Every instance that may serve a retry needs the same keys; by
   * default they are derived from `sessions.keys` (a key of their own from each, rotating with them), and without
   * sessions they are random per process, which suits local use and single-round tools only.
   */
  requestStateSecret?: string | Uint8Array;
  /** How long a sealed `requestState` stays valid, in ms: the time a user has to answer. Default 15 minutes. */
  requestStateTtlMs?: number;
  /**
   * Handshake-era sessions (docs/asking.md): `initialize` answers with an `Mcp-Session-Id` sealing what the client
   * declared, so later requests know it (and a tool can ask mid-call). Every instance needs the same keys; they
   * key the 2026-07-28 `requestState` too (see `requestStateSecret`). Default none: no session ids, and
   * handshake-era clients cannot be asked.
   */
  sessions?: SessionOptions;
  /**
   * The call state of the handshake era, behind a streaming adapter: where mid-call questions wait for the client's
   * answer, where the client's cancellations wait for the calls they name, and where the events of a cut stream wait
   * for its client to resume it (`GET` with `Last-Event-ID`, docs/streaming.md). `dynamoCallState(...)` when several
   * instances serve the endpoint, `memoryCallState()` for one process. Default none: such questions are refused as
   * unavailable, and streams carry no event ids.
   */
  callState?: CallState;
  /** @deprecated Renamed `callState` (the same call state); `callState` wins when both are given. */
  rendezvous?: CallState;
  /** How often a call waiting for an answer reads the call state, in ms. Default 250. */
  askPollIntervalMs?: number;
  /** Validators generated at build time (`npm run generate`); schemas without one are compiled at first use. */
  validators?: PrecompiledValidators;
  /** HTTP transport rules. */
  http?: Partial<TransportOptions>;
  /**
   * The tasks extension (docs/tasks.md): tools declaring `task` may then be answered with a task that a worker
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
  /**
   * OpenTelemetry (`loadTelemetry`, MCP_TRACING): a server span per request by the MCP conventions, a span per tool
   * handler. Default none: nothing traced, no tracing code loaded.
   */
  telemetry?: Telemetry;
}

/** Transport defaults: the secure choice for each (no foreign origins, 1 MiB bodies). */
export const DEFAULT_TRANSPORT: TransportOptions = {
  path: Defaults.mcpPath,
  allowedOrigins: [],
  maxBodyBytes: Defaults.maxBodyBytes,
};

/**
 * The tools the server brings itself when outputs are stored and their pages can be read: `read_output` (unless
 * turned off) and `delete_output` (when asked for).
 */
function builtInTools(options: McpServerOptions): ToolDefinition[] {
  const { offloader, outputPages: pager, deleteOutputTool: deleting } = options;
  if (!offloader || !pager) return [];
  const tools = [
    ...(options.readOutputTool !== false
      ? [readOutputTool({ pager, thresholdBytes: offloader.thresholdBytes })]
      : []),
    ...(deleting ? [deleteOutputTool({ offloader, pager, ...deleting })] : []),
  ];
  const taken = tools.find((b) => options.tools?.some((t) => t.name === b.name));
  if (taken)
    throw new Error(
      `Tool "${taken.name}" is built in when outputs are offloaded: rename yours, or turn the built-in one off`,
    );
  return tools;
}

/** What the server declares: the methods it serves and its extensions (tasks, views). */
function capabilitiesOf(
  options: McpServerOptions,
  served: { resources: readonly unknown[]; prompts: readonly unknown[]; views: readonly unknown[] },
): ServerCapabilities {
  const extensions = {
    ...(options.tasks ? { [TASKS_EXTENSION]: {} } : {}),
    // SEP-1865 "Capability Negotiation": the extension's id, with the content types this server's views use.
    ...(served.views.length ? { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } : {}),
  };
  // A stateless server cannot push list changes or subscriptions (the 2026-07-28 revision's server rules).
  return {
    tools: {},
    ...(served.resources.length ? { resources: {} } : {}),
    ...(served.prompts.length ? { prompts: {} } : {}),
    ...(options.logging ? { logging: {} } : {}),
    ...(options.completions ? { completions: {} } : {}),
    ...(Object.keys(extensions).length ? { extensions } : {}),
  };
}

/** The dispatcher inside each request's span, when the server traces (names: only its own tools and prompts). */
function tracedDispatch(
  dispatch: Dispatch,
  telemetry: Telemetry | undefined,
  served: { tools: ToolRegistry; prompts: readonly PromptDefinition[]; views: readonly ViewDefinition[] },
): Dispatch {
  if (!telemetry) return dispatch;
  return telemetry.traced(dispatch, {
    isTool: (name) => served.tools.has(name),
    isPrompt: (name) => served.prompts.some((p) => p.name === name),
    isView: (uri) => served.views.some((v) => v.uri === uri),
  });
}

/**
 * The handshake era's call state: its stores as the askers read them (with how often), and the one object the
 * transport uses, whose code loads on first use: sessions, answers, cancellations, and cut streams' events waiting
 * for their client to resume them (docs/streaming.md). None without sessions.
 */
function handshakeCallStateOf(options: McpServerOptions, http: TransportOptions) {
  const stores = options.callState ?? options.rendezvous;
  const callState = stores && {
    ...stores,
    pollIntervalMs: options.askPollIntervalMs ?? Defaults.askPollIntervalMs,
  };
  const handshake =
    options.sessions &&
    lazyHandshakeCallState({
      sessions: options.sessions,
      ...(callState ? { callState } : {}),
      streams: http,
    });
  return { callState, handshake };
}

/** Builds a stateless MCP server: a registry, a dispatcher and the HTTP transport in front of them. */
export function createMcpServer(options: McpServerOptions) {
  const builtIn = builtInTools(options);
  // Proofs are signed as requestState is sealed: the explicit secret, else a key of their own from the session keys.
  const approvals = {
    ...options.approvals,
    secret: options.approvals?.secret ?? options.requestStateSecret,
    ...(options.sessions ? { sessionKeys: options.sessions.keys } : {}),
  };
  const definitions = withApprovals([...(options.tools ?? []), ...builtIn], approvals);
  const tools = new ToolRegistry(spannedTools(definitions, options.telemetry?.span), {
    defaultTimeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    ...(options.validators ? { validators: options.validators } : {}),
  });
  const listCache = options.listCache ?? { ttlMs: Defaults.listCacheTtlMs, cacheScope: 'public' };
  const views = collectViews(
    options.views ?? [],
    definitions.map((t) => t.view),
  );
  // Views first: a `ui://` URI is the server's own, whatever other providers claim.
  const resources = [
    ...(views.length ? [viewResources(views, listCache)] : []),
    ...(options.resources ?? []),
  ];
  const prompts = options.prompts ?? [];
  const capabilities = capabilitiesOf(options, { resources, prompts, views });
  const readTool = builtIn.some((t) => t.name === READ_OUTPUT_TOOL) ? { readTool: READ_OUTPUT_TOOL } : {};
  const http: TransportOptions = { ...DEFAULT_TRANSPORT, ...options.http };
  const { callState, handshake } = handshakeCallStateOf(options, http);
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
    listCache,
    ...(options.offloader ? { offloader: options.offloader } : {}),
    ...readTool,
    ...(options.observer ? { observer: options.observer } : {}),
    ...(options.tasks
      ? {
          tasks: taskLoader(options.tasks, {
            tools,
            ...(options.offloader ? { offloader: options.offloader } : {}),
            ...readTool,
          }),
        }
      : {}),
    ...(callState ? { callState } : {}),
    requestState: lazyRequestState({
      ttlMs: options.requestStateTtlMs ?? Defaults.requestStateTtlMs,
      ...(options.requestStateSecret !== undefined ? { secret: options.requestStateSecret } : {}),
      ...(options.sessions ? { sessionKeys: options.sessions.keys } : {}),
    }),
  });
  const traced = tracedDispatch(dispatch, options.telemetry, { tools, prompts, views });
  const handle = createTransport(
    {
      dispatch: traced,
      paramHeadersOf: (name) => tools.paramHeaders(name),
      ...(options.auth ? { authenticator: options.auth } : {}),
      ...(handshake ? { handshake } : {}),
    },
    http,
  );
  return { handle, dispatch: traced, tools, capabilities, http };
}

export type McpServer = ReturnType<typeof createMcpServer>;
