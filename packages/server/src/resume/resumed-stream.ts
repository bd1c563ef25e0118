import type { LoggedEvent, PolledCallState, StreamHead } from '../call-state/stores.ts';
import { pause } from '../call-state/waiting.ts';
import { anySignal, deadlineSignal } from '../deadline.ts';
import { SSE_HEADERS, sseFrame } from '../wire/replies.ts';
import type { StreamedHttpResponse, StreamingInvocationContext } from '../wire/types.ts';
import { errorFields } from '../log.ts';
import { ErrorCode, McpError } from '../protocol/errors.ts';
import { eventId } from './event-ids.ts';
import { logWaitKey } from './stream-log.ts';

/** How a resumed stream is served. */
export interface ResumedStreamOptions {
  /** The store of the log, and how often a waiting stream reads it. */
  callState: Pick<PolledCallState, 'streamLog' | 'pollIntervalMs'>;
  retryMs: number;
  heartbeatMs: number;
  ctx: StreamingInvocationContext;
}

const retry = (ms: number) => `retry: ${ms}\n\n`;
/** Time after a call's deadline for its last write to land in the log. */
const CALL_END_MARGIN_MS = 2_000;
const CALL_LOST =
  'The call ended without its result reaching the stream log (its server instance stopped, or the log could not be ' +
  'written), so the result is lost; call the tool again.';
const frame = (streamId: string, event: LoggedEvent) =>
  sseFrame(event.data, eventId(streamId, event.position));

/**
 * The events of a cut stream after `position`, then each later one as the call logs it, read every poll interval
 * (at once when the call runs in this process); the stream ends with the call's response. It ends sooner, with a
 * fresh `retry` so the client polls again, a margin before this invocation's deadline; when this client goes away;
 * and, with a JSON-RPC error for the call, once the call has ended without its response reaching the log.
 */
async function* events(
  head: StreamHead,
  after: number,
  options: ResumedStreamOptions,
): AsyncGenerator<string, void, undefined> {
  const { callState, ctx } = options;
  const { streamId } = head;
  let position = after;
  yield retry(options.retryMs);
  for (const event of head.sent) {
    if (event.position <= position) continue;
    yield frame(streamId, event);
    if (event.last) return;
    position = event.position;
  }
  position = Math.max(position, head.next - 1);
  // The live stream sends an event before its write lands, so the client may hold one the log has not got yet: it
  // is read again (not sent) to learn whether it was the response, which leaves nothing to resume.
  if (after >= head.next) position = after - 1;
  // Past the call's end (and the time its last write may take), nothing more can come: the wait stops then, but
  // what the log holds is still read to its end first (a client may resume long after the call ended).
  const over = head.ends + CALL_END_MARGIN_MS + callState.pollIntervalMs;
  const waitEnd = Math.min(head.until, over);
  const stop = anySignal(deadlineSignal(ctx.deadline), ctx.streaming.disconnected)!;
  let beat = Date.now();
  // Whether the last read failed: then the log may hold more than was read, and nothing is concluded from it.
  let unread = false;
  while (!stop.aborted) {
    let event: LoggedEvent | undefined;
    try {
      event = await callState.streamLog.readEvent({ streamId, position: position + 1 }, stop);
      unread = false;
    } catch (error) {
      if (stop.aborted) break;
      // Once per run of failures: a store that stays down must not cost a log line per poll of every GET.
      if (!unread) ctx.log.warn('stream log read failed; reading again', { error: errorFields(error) });
      unread = true;
    }
    if (event) {
      if (event.position > after) yield frame(streamId, event);
      if (event.last) return;
      position = event.position;
      continue;
    }
    const left = waitEnd - Date.now();
    if (left <= 0) break;
    if (Date.now() - beat >= options.heartbeatMs) {
      beat = Date.now();
      yield ': keep-alive\n\n';
    }
    await pause(logWaitKey(streamId), Math.min(callState.pollIntervalMs, left), stop);
  }
  if (!stop.aborted && !unread && Date.now() >= over) {
    // The call ended without its response in the log (its instance stopped, or a write failed): say so, for its id.
    ctx.log.warn('resumed stream ended without the response: the call ended first');
    yield sseFrame(JSON.stringify(new McpError(ErrorCode.InternalError, CALL_LOST).toResponse(head.callId)));
    return;
  }
  // Out of time here (or the log cannot be read now), not done: the client resumes again from the last id it saw.
  yield retry(options.retryMs);
}

/** The response of a resumed stream: 200, the events after `after`, then the rest as it comes. */
export function resumedStream(
  head: StreamHead,
  after: number,
  options: ResumedStreamOptions,
): StreamedHttpResponse {
  return { status: 200, headers: { ...SSE_HEADERS }, body: events(head, after, options) };
}
