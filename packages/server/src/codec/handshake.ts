import type { InputContext, InputRequired } from '../input/input-required.ts';
import { ErrorCode, McpError, ResourceNotFoundError } from '../protocol/errors.ts';
import type { CallToolResult, JSONObject } from '../protocol/types.ts';
import { DEFAULT_HANDSHAKE_VERSION, type Revision } from '../protocol/versions.ts';
import { TASKS_EXTENSION } from '../tasks/types.ts';
import { toolErrorResult } from '../tools/result.ts';
import type { AskSetup, InputTarget, RevisionCodec } from './codec.ts';
import { handshakeAsker } from '../asking/lazy.ts';
import type { PolledCallState } from '../call-state/stores.ts';
import type { Asker } from '../contracts/asking.ts';

/** Methods only the stateless revision has. */
const STATELESS_ONLY = new Set([
  'server/discover',
  'subscriptions/listen',
  // The tasks extension rides on 2026-07-28 per-request capabilities; the handshake era has no such requests.
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);
const NO_INPUT: InputContext = Object.freeze({
  inputResponses: {},
  requestState: undefined,
});

/**
 * The handshake era (2025-03-26, 2025-06-18, 2025-11-25): plain results without cache hints, -32002 for a missing
 * resource, no way to ask the client for input on a stateless server, and every log message delivered (there is
 * no per-request level, and `logging/setLevel` cannot be remembered between requests).
 */
export class HandshakeCodec implements RevisionCodec {
  constructor(
    readonly revision: Revision,
    private readonly callState?: PolledCallState,
  ) {}

  has(method: string): boolean {
    return !STATELESS_ONLY.has(method);
  }

  result(method: string, result: JSONObject): JSONObject {
    if (method === 'initialize') return withoutTasksExtension(result);
    if (!('ttlMs' in result) && !('cacheScope' in result)) return result;
    const { ttlMs: _t, cacheScope: _s, ...rest } = result;
    return rest;
  }

  resourceNotFound(uri: string): McpError {
    return new ResourceNotFoundError(uri, ErrorCode.ResourceNotFound);
  }

  toolResult(result: CallToolResult): CallToolResult {
    // 2025-03-26 has no resource_link block (it arrived in 2025-06-18).
    return this.revision.protocolVersion === DEFAULT_HANDSHAKE_VERSION ? withLinksAsText(result) : result;
  }

  /** No multi round-trip fields; the capabilities the client declared at `initialize`, when its session says. */
  async input(): Promise<InputContext> {
    const declared = this.revision.clientCapabilities;
    return declared ? { ...NO_INPUT, clientCapabilities: declared } : NO_INPUT;
  }

  /** Mid-call, on the request's event stream, when the session and the deployment allow it (asking/handshake.ts). */
  asker({ input: _input, ...setup }: AskSetup): Asker {
    return handshakeAsker({ ...setup, ...(this.callState ? { callState: this.callState } : {}) });
  }

  /**
   * Asking needs a server-to-client request on a session, which a stateless server cannot make: a tool tells the
   * model instead (it can ask the user itself), a prompt is refused.
   */
  async askForInput(request: InputRequired, target: InputTarget): Promise<JSONObject> {
    const methods = [...new Set(Object.values(request.inputRequests).map((r) => r.method))].join(', ');
    if (target.kind === 'tool') {
      return toolErrorResult(
        `Tool "${target.name}" needs input from the client (${methods}), which this stateless server can only ask ` +
          `for over protocol revision 2026-07-28. Ask the user for what the tool needs, or use a client that ` +
          `speaks 2026-07-28.`,
      ) as unknown as JSONObject;
    }
    throw new McpError(
      ErrorCode.InvalidRequest,
      `Prompt ${target.name} needs input from the client, which this server can only ask for over protocol ` +
        `revision 2026-07-28`,
    );
  }

  logThreshold(): number {
    return 0;
  }

  /** Handshake-era requests carry no per-request capabilities, so they never declare the tasks extension. */
  acceptsTasks(): boolean {
    return false;
  }

  taskRequired(tool: string): JSONObject {
    return toolErrorResult(
      `Tool "${tool}" runs only as a task (it can take minutes), which needs a client that speaks protocol ` +
        `revision 2026-07-28 and declares the ${TASKS_EXTENSION} extension. Use such a client for this tool.`,
    ) as unknown as JSONObject;
  }
}

/** `initialize` advertises no tasks extension: no handshake-era request could use it. */
function withoutTasksExtension(result: JSONObject): JSONObject {
  const capabilities = result.capabilities as { extensions?: Record<string, unknown> } | undefined;
  if (!capabilities?.extensions || !(TASKS_EXTENSION in capabilities.extensions)) return result;
  const { [TASKS_EXTENSION]: _tasks, ...extensions } = capabilities.extensions;
  const { extensions: _all, ...rest } = capabilities;
  return {
    ...result,
    capabilities: Object.keys(extensions).length ? { ...rest, extensions } : rest,
  };
}

/**
 * Each resource link of a result as a text block naming the URI, for clients of 2025-03-26: the pointer still
 * reaches the model and the client can validate the result.
 */
function withLinksAsText(result: CallToolResult): CallToolResult {
  if (!result.content.some((block) => block.type === 'resource_link')) return result;
  return {
    ...result,
    content: result.content.map((block) => {
      if (block.type !== 'resource_link') return block;
      const facts = [block.uri, block.mimeType, block.size !== undefined ? `${block.size} bytes` : undefined];
      const text =
        `Resource "${block.title ?? block.name}" (${facts.filter(Boolean).join(', ')})` +
        `${block.description ? `: ${block.description}` : ''}. Read it with resources/read.`;
      return { type: 'text', text, ...(block.annotations ? { annotations: block.annotations } : {}) };
    }),
  };
}
