import {
  checkInputRequests,
  inputRequiredResult,
  readInputResponses,
  type InputContext,
  type InputRequired,
} from '../input/input-required.ts';
import type { StateBinding, StateScope } from '../input/request-state.ts';
import { isJsonObject } from '../protocol/json.ts';
import {
  ErrorCode,
  MissingCapabilityError,
  ResourceNotFoundError,
  type McpError,
} from '../protocol/errors.ts';
import { TASKS_EXTENSION } from '../tasks/types.ts';
import {
  LOGGING_LEVELS,
  type CallToolResult,
  type JSONObject,
  type LoggingLevel,
} from '../protocol/types.ts';
import { MetaKey, type Revision } from '../protocol/versions.ts';
import type { AskSetup, CodecOptions, InputTarget, RevisionCodec } from './codec.ts';
import { replayAsker } from '../asking/lazy.ts';
import type { Asker } from '../contracts/asking.ts';

/** Methods only the handshake era has. */
const HANDSHAKE_ONLY = new Set(['initialize', 'ping', 'logging/setLevel']);
/** Results that carry cache hints (spec 2026-07-28: server/utilities/caching). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/** What every stateless codec of one server shares. */
interface StatelessShared extends CodecOptions {
  serverInfo: JSONObject;
  /** Set once the "state sealed with a key random to this instance" warning has been logged. */
  warnedEphemeral: boolean;
}

const binding = (target: InputTarget): StateBinding => ({
  method: target.method,
  name: target.name,
  arguments: target.arguments,
  ...(target.principal !== undefined ? { principal: target.principal } : {}),
});

/**
 * The stateless revision (2026-07-28): every result says `resultType` and carries serverInfo, cacheable results
 * carry cache hints, a missing resource is -32602 (the revision forbids -32002), and a handler may ask the client
 * for input through an InputRequiredResult whose state travels sealed in `requestState`.
 */
export class StatelessCodec implements RevisionCodec {
  /** The part of a stateless codec that is the same for every request of a server. */
  static shared(options: CodecOptions): StatelessShared {
    const { name, version, title } = options.info;
    return {
      ...options,
      serverInfo: { name, version, ...(title ? { title } : {}) },
      warnedEphemeral: false,
    };
  }

  constructor(
    readonly revision: Revision,
    private readonly shared: StatelessShared,
  ) {}

  has(method: string): boolean {
    return !HANDSHAKE_ONLY.has(method);
  }

  result(method: string, result: JSONObject): JSONObject {
    const meta = isJsonObject(result._meta) ? result._meta : {};
    // SEP-2322 `input_required`, SEP-2663 `task` (a CreateTaskResult); every other result is `complete`.
    const kind =
      result.resultType === 'input_required' || result.resultType === 'task' ? result.resultType : 'complete';
    const complete = kind === 'complete';
    const wrapped: JSONObject = {
      ...result,
      resultType: kind,
      _meta: { ...meta, [MetaKey.ServerInfo]: this.shared.serverInfo },
    };
    return complete && CACHEABLE.has(method) && !('ttlMs' in wrapped)
      ? { ...wrapped, ...this.shared.listCache }
      : wrapped;
  }

  resourceNotFound(uri: string): McpError {
    return new ResourceNotFoundError(uri, ErrorCode.InvalidParams);
  }

  toolResult(result: CallToolResult): CallToolResult {
    return result;
  }

  async input(params: JSONObject, target: InputTarget, scope: StateScope): Promise<InputContext> {
    const inputResponses = readInputResponses(params.inputResponses);
    return {
      clientCapabilities: this.revision.clientCapabilities ?? {},
      asksInRounds: true,
      inputResponses,
      requestState:
        params.requestState === undefined
          ? undefined
          : await this.shared.requestState.open(params.requestState, binding(target), scope),
    };
  }

  async askForInput(request: InputRequired, target: InputTarget, scope: StateScope): Promise<JSONObject> {
    checkInputRequests(request, this.revision.clientCapabilities ?? {});
    const { requestState } = this.shared;
    if (request.state !== undefined && requestState.ephemeral && !this.shared.warnedEphemeral) {
      this.shared.warnedEphemeral = true;
      scope.log.warn(
        'requestState is sealed with a key random to this instance; set session keys (MCP_SESSION_SECRET or ' +
          'MCP_SESSION_SECRET_ARN) or requestStateSecret so that any instance can serve the retry',
        { method: target.method, name: target.name },
      );
    }
    const sealed =
      request.state === undefined
        ? undefined
        : await requestState.seal(request.state, binding(target), scope);
    return inputRequiredResult(request, sealed);
  }

  /** Through InputRequiredResults: the handler runs again with the answers (asking/replay.ts). */
  asker({ input }: AskSetup): Asker {
    return replayAsker(input);
  }

  /** SEP-2663: a request may get a task only if its own capabilities declare the extension. */
  acceptsTasks(): boolean {
    const extensions = this.revision.clientCapabilities?.extensions;
    return isJsonObject(extensions) && isJsonObject(extensions[TASKS_EXTENSION]);
  }

  /** SEP-2663 "Capability Negotiation": -32021 naming the extension (HTTP 400). */
  taskRequired(): JSONObject {
    throw new MissingCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
  }

  /** 2026-07-28 has no logging/setLevel: a request asks for log messages with `_meta` logLevel, none without. */
  logThreshold(meta: JSONObject): number {
    return LOGGING_LEVELS.indexOf(meta[MetaKey.LogLevel] as LoggingLevel);
  }
}
