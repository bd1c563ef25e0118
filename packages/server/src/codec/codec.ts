import type { Asker } from '../contracts/asking.ts';
import type { PolledCallState } from '../call-state/stores.ts';
import type { LiveChannel } from '../live-channel.ts';
import type { InputContext, InputRequired } from '../input/input-required.ts';
import type { Session } from '../sessions/session-id.ts';
import type { RequestStateCodec, StateScope } from '../input/request-state.ts';
import type { Logger } from '../log.ts';
import type { McpError } from '../protocol/errors.ts';
import type { CacheHint, CallToolResult, Implementation, JSONObject, RequestId } from '../protocol/types.ts';
import type { Revision } from '../protocol/versions.ts';

/**
 * Every difference between protocol revisions that a method's answer depends on, in one object per request.
 * Method handlers are era-blind: they ask the codec, and only codecs (and the HTTP transport) look at the era.
 */
export interface RevisionCodec {
  /** The request's revision, as data for tools and providers (`ToolContext.era`); never branched on elsewhere. */
  readonly revision: Revision;
  /** Whether the revision has this method at all (`initialize` is handshake-era only, `server/discover` stateless). */
  has(method: string): boolean;
  /** A method's successful result as the revision puts it on the wire (envelope, cache hints). */
  result(method: string, result: JSONObject): JSONObject;
  /** The revision's "resource not found" error. */
  resourceNotFound(uri: string): McpError;
  /** A tool result in the content types the revision knows. */
  toolResult(result: CallToolResult): CallToolResult;
  /**
   * What a handler learns of the multi round-trip fields of a request (empty where the revision has none); opening
   * a `requestState` may read its keys, within the request's deadline (`scope`).
   */
  input(params: JSONObject, target: InputTarget, scope: StateScope): Promise<InputContext>;
  /** The answer to a handler that needs input from the client; sealing its state may read keys, as `input` may. */
  askForInput(request: InputRequired, target: InputTarget, scope: StateScope): Promise<JSONObject>;
  /** Lowest severity (index in LOGGING_LEVELS) of log notifications this request receives; -1 for none. */
  logThreshold(meta: JSONObject): number;
  /** Whether the request declared the tasks extension, so it may be answered with a task (SEP-2663). */
  acceptsTasks(): boolean;
  /** The answer to a call of a tool that only runs as a task, from a client that does not accept tasks. */
  taskRequired(tool: string): JSONObject;
  /** How a tool of this request asks the client (`ctx.elicit`, `ctx.sample`, `ctx.roots`). */
  asker(setup: AskSetup): Asker;
}

/** What a request offers the asking of its tool. */
export interface AskSetup {
  /** The multi round-trip fields of the request (2026-07-28). */
  input: InputContext;
  /** The request's open event stream, when the adapter streams and the client accepts one. */
  live?: LiveChannel;
  /** The handshake-era session the request names. */
  session?: Session;
  /** The authenticated caller's client key (`Principal.clientKey`), when authorization is on. */
  principal?: string;
  /** The JSON-RPC id of the call. */
  callId: RequestId;
  log: Logger;
}

/** Which request a sealed state belongs to: replaying it against another target, arguments or caller fails. */
export interface InputTarget {
  kind: 'tool' | 'prompt';
  method: string;
  name: string;
  /** The request's `params.arguments`, as the client sent them. */
  arguments: unknown;
  /** The caller's client key (`Principal.clientKey`), when authorization is on. */
  principal?: string;
}

/** What the codecs of one server share. */
export interface CodecOptions {
  info: Implementation;
  /** Cache hint of cacheable results that set none themselves (2026-07-28). */
  listCache: CacheHint;
  /** Seals the `requestState` of multi round-trip requests (2026-07-28). */
  requestState: RequestStateCodec;
  /** Where mid-call questions wait for their answers (handshake era, streaming API); none: they are refused. */
  callState?: PolledCallState;
}
