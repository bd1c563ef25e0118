import { callerOf } from '../call-state/ids.ts';
import type { PolledCallState, StreamHead, StreamLog } from '../call-state/stores.ts';
import { deadlineSignal } from '../deadline.ts';
import { namedSession } from '../sessions/named-session.ts';
import type { Admission } from '../wire/admitted.ts';
import { refusal } from '../wire/replies.ts';
import type { TransportOptions } from '../wire/transport-options.ts';
import type {
  HttpRequest,
  HttpResponse,
  StreamedHttpResponse,
  StreamingInvocationContext,
} from '../wire/types.ts';
import { Defaults } from '../limits.ts';
import { errorFields } from '../log.ts';
import { clientText } from '../protocol/client-text.ts';
import { isHandshakeVersion, isStatelessVersion } from '../protocol/versions.ts';
import type { Sessions } from '../sessions/sessions.ts';
import { parseEventId } from './event-ids.ts';
import { MAX_LOG_SPAN } from './resumable-stream.ts';
import { resumedStream } from './resumed-stream.ts';

/**
 * `GET` with `Last-Event-ID` (SEP-1699; spec: transports, "Resumability and Redelivery"): a client that lost a POST
 * stream, or was told to poll, resumes it on any instance. Only its own: the log is bound to the session and the
 * authenticated caller it was opened for, and a stream that is unknown, expired, another caller's, or whose log no
 * longer reaches back to the id is answered 404 alike (and logged). A `GET` without `Last-Event-ID` asks for a
 * standalone stream, which this server does not offer: 405, as in 2026-07-28, which has no `GET` stream at all.
 */

/** What resuming needs: the sessions, the call state where cut streams' events wait, and the stream options. */
export interface ResumeSetup {
  sessions: Sessions;
  callState: PolledCallState;
  options: TransportOptions;
}

const NO_STREAM = (why: string) => refusal(405, `Method not allowed: ${why}; use POST`, { allow: 'POST' });

/** The one answer to every stream that cannot be resumed by this caller: nothing tells them apart. */
const STREAM_NOT_FOUND = refusal(
  404,
  'Not found: no stream of this session has that event id (unknown, expired, or not yours); call again with POST',
);

/** A stream that ended with the event the client names: it has the response already. */
const STREAM_ENDED = refusal(404, 'Not found: that stream has ended; its last event was the response');

/**
 * Why a head does not resume at `position` for `caller` (for the log line), or undefined when it does: a log that
 * no longer reaches back to the position would leave a gap, and one that cannot reach it (a forged position) would
 * hold a GET open for nothing.
 */
function refusalOf(head: StreamHead | undefined, caller: string, position: number): string | undefined {
  if (!head) return 'unknown';
  if (head.caller !== caller) return 'other-caller';
  const first = head.sent[0]?.position ?? head.next;
  if (position + 1 < first) return 'before-log';
  return position >= head.next + MAX_LOG_SPAN ? 'beyond-log' : undefined;
}

/**
 * Whether the event at `position` was the stream's last: a client that has the response has nothing to resume
 * (one that resumes anyway, as SDK 1.x does after a JSON-RPC error, must not be held open until the deadline).
 */
async function endsAt(store: StreamLog, head: StreamHead, position: number, signal?: AbortSignal) {
  const at = { streamId: head.streamId, position };
  return position >= head.next && (await store.readEvent(at, signal))?.last === true;
}

/** The checks of a resuming `GET` in order; the refusal, or the stream and where to resume it. */
async function check(
  { sessions, callState }: ResumeSetup,
  req: HttpRequest,
  admitted: Admission,
  ctx: StreamingInvocationContext,
): Promise<HttpResponse | { head: StreamHead; position: number }> {
  const version = req.headers['mcp-protocol-version']?.trim();
  if (version !== undefined && isStatelessVersion(version))
    return NO_STREAM(`${version} has no GET stream (2026-07-28 Streamable HTTP)`);
  if (version !== undefined && !isHandshakeVersion(version))
    return refusal(400, `Bad Request: unsupported MCP-Protocol-Version ${clientText(version, 32)}`);
  const header = req.headers['last-event-id'];
  if (header === undefined) return NO_STREAM('this server offers no standalone GET stream');
  const id = parseEventId(header);
  if (!id) return refusal(400, 'Bad Request: Last-Event-ID is not an event id of this server');
  if (!admitted.accepts.sse) return refusal(406, 'Not Acceptable: Accept must include text/event-stream');
  const named = await namedSession(sessions, req, admitted, ctx);
  if ('refusal' in named) return named.refusal;
  if (!named.session)
    return refusal(400, 'Bad Request: resuming a stream needs the Mcp-Session-Id it was opened in');
  const caller = callerOf(named.session.id, admitted.principal?.clientKey);
  const store = callState.streamLog;
  const signal = deadlineSignal(ctx.deadline);
  let head: StreamHead | undefined;
  let refused: string | undefined;
  try {
    head = await store.readHead({ streamId: id.streamId, now: Date.now() }, signal);
    refused = refusalOf(head, caller, id.position);
    if (!refused && (await endsAt(store, head!, id.position, signal))) refused = 'ended';
  } catch (error) {
    ctx.log.error('stream log read failed', { error: errorFields(error) });
    return refusal(503, 'Service unavailable: the stream cannot be read right now; retry shortly', {
      'retry-after': '1',
    });
  }
  if (!refused) return { head: head!, position: id.position };
  ctx.log.warn('stream resumption refused', { reason: refused });
  return refused === 'ended' ? STREAM_ENDED : STREAM_NOT_FOUND;
}

/** Answers a `GET`: the refusal, or the events after `Last-Event-ID`, then the rest as the call goes on. */
export async function resumeStream(
  setup: ResumeSetup,
  req: HttpRequest,
  admitted: Admission,
  ctx: StreamingInvocationContext,
): Promise<{ response: HttpResponse | StreamedHttpResponse; finished?: Promise<undefined> }> {
  const checked = await check(setup, req, admitted, ctx);
  if ('status' in checked) return { response: checked };
  const { options } = setup;
  const response = resumedStream(checked.head, checked.position, {
    callState: setup.callState,
    retryMs: options.streamRetryMs ?? Defaults.streamRetryMs,
    heartbeatMs: options.streamHeartbeatMs ?? Defaults.streamHeartbeatMs,
    ctx,
  });
  ctx.log.info('stream resumed', { after: checked.position });
  return { response, finished: Promise.resolve(undefined) };
}
