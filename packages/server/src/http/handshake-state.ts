import type { JSONObject, JSONRPCRequest, JSONRPCResponse, RequestId } from '../protocol/types.ts';
import type { Revision } from '../protocol/versions.ts';
import type { Session } from '../sessions/session-id.ts';
import type { Admission } from '../wire/admitted.ts';
import type { LiveStream } from '../wire/live-stream.ts';
import type {
  HttpRequest,
  HttpResponse,
  InvocationContext,
  StreamedHttpResponse,
  StreamingInvocationContext,
} from '../wire/types.ts';

/**
 * The handshake era's call state as the transport needs it: sealed sessions, the answer desk and the call state's
 * stores, resumable streams and their resumption, the watch for a client's cancellation. The transport receives
 * it as one object, given only when the server issues sessions (without a session nothing of it applies), whose
 * code loads on first use; the feature implements it (asking/handshake-state.ts) and server.ts hands it over, so
 * the transport depends on no feature's code. Each method is one step of the transport's.
 */
export interface HandshakeCallState {
  /**
   * Whether the server keeps a call state (`callState`): questions asked mid-call, the clients' cancellations, the
   * logs of cut streams. Without one an answer is acknowledged and dropped, a cancellation only acknowledged, and no
   * stream can be resumed. Known without loading anything.
   */
  readonly keeps: boolean;
  /**
   * The session a handshake-era message after `initialize` names (none without `Mcp-Session-Id`), and the revision as
   * it refines it (what the client declared, and its version when no header names one); or the response refusing
   * the message (404 for an id that names no live session of this caller, 503 when the keys cannot be read).
   */
  session(message: {
    req: HttpRequest;
    admitted: Admission;
    ctx: InvocationContext;
    revision: Revision;
  }): Promise<{ session?: Session; revision: Revision } | { refusal: HttpResponse }>;
  /**
   * Issues a session: the `Mcp-Session-Id` header of a successful `initialize` answer (none when the keys cannot be
   * read: the client still works, and cannot be asked mid-call).
   */
  issue(initialize: {
    request: JSONRPCRequest;
    response: JSONRPCResponse;
    admitted: Admission;
    ctx: InvocationContext;
  }): Promise<Record<string, string>>;
  /** The response to a client's answer to a mid-call question (a JSON-RPC response POSTed to the endpoint). */
  answer(answer: {
    req: HttpRequest;
    message: JSONObject;
    admitted: Admission;
    ctx: InvocationContext;
  }): Promise<HttpResponse>;
  /** Records a client's `notifications/cancelled` of one of its calls, for the call to see on any instance. */
  cancel(cancellation: {
    params: JSONObject | undefined;
    session: Session;
    admitted: Admission;
    ctx: InvocationContext;
  }): Promise<void>;
  /**
   * The live stream of a call in a session: one that survives a cut and watches for the client's cancellation
   * (SEP-1699); undefined where streams cannot be resumed (no call state).
   */
  stream(call: {
    callId: RequestId;
    session: Session;
    admitted: Admission;
    ctx: InvocationContext;
  }): Promise<LiveStream | undefined>;
  /** Answers a `GET` (with `Last-Event-ID`, it resumes a cut stream), where streams can be resumed. */
  resume(get: {
    req: HttpRequest;
    admitted: Admission;
    ctx: StreamingInvocationContext;
  }): Promise<{ response: HttpResponse | StreamedHttpResponse; finished?: Promise<undefined> }>;
}
