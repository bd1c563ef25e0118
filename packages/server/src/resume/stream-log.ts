import { callerOf } from '../call-state/ids.ts';
import type { LoggedEvent, StreamLog } from '../call-state/stores.ts';
import { wake } from '../call-state/waiting.ts';
import { deadlineSignal } from '../deadline.ts';
import { Defaults } from '../limits.ts';
import { errorFields, type Logger } from '../log.ts';
import { ErrorCode, McpError } from '../protocol/errors.ts';
import type { RequestId } from '../protocol/types.ts';

/**
 * Writing a stream's log (loaded when the first log starts): the head first, bound to the caller, with the last
 * events the stream had sent; then each later event in order, every write bounded by the invocation's deadline. A
 * response too large for a store item is replaced by an error saying so (results above 32 KB are offloaded anyway;
 * the stream bounds the other events, resumable-stream.ts). A write that fails ends the log: a reader cannot skip the
 * missing event, so the rest is not written, and the failure is logged.
 */

/** Largest event logged, in UTF-8 bytes (a DynamoDB item holds 400 KB). */
const MAX_EVENT_BYTES = 300 * 1024;
/** How long a log is served when the invocation has no deadline (local servers). */
const NO_DEADLINE_MS = 15 * 60_000;

/** Where a stream's events go once its log has started: written in order, each bounded by the invocation's deadline. */
export interface EventSink {
  /** Settles once the head is written: whether it was (a stream whose log could not start cannot be resumed). */
  started: Promise<boolean>;
  /** Logs the next event. */
  append(event: LoggedEvent): void;
  /** Settles once every appended event is written or given up on (never rejects). */
  drained(): Promise<void>;
}

/** What the log of one request's stream needs. */
export interface StreamLogSetup {
  store: StreamLog;
  /** The session the stream was opened in, and the caller's client key (`Principal.clientKey`) when authorization is on. */
  sessionId: string;
  principal?: string;
  /** The invocation's deadline (epoch ms), if any: the call ends by then, and every write is bounded by it. */
  deadline?: number;
  /** The call's JSON-RPC id: a resumed stream that outlives the call without its response ends with an error for it. */
  callId: RequestId;
  log: Logger;
}

/** The key local readers of a stream's log wait on (waiting.ts), woken when an event is written here. */
export const logWaitKey = (streamId: string) => `log.${streamId}`;

/** When the call has ended at the latest (its deadline), and until when its log is served (the grace after it). */
function logTimes(deadline: number | undefined, now: number): { ends: number; until: number } {
  const ends = deadline ?? now + NO_DEADLINE_MS;
  return { ends, until: ends + Defaults.streamLogGraceMs };
}

/** The event as it can be logged: whole, or a response too large replaced by an error saying so. */
function fitted(event: LoggedEvent, log: Logger): LoggedEvent {
  const bytes = Buffer.byteLength(event.data);
  if (bytes <= MAX_EVENT_BYTES) return event;
  log.warn('response too large for the stream log: an error is logged in its place', { bytes });
  const { id } = JSON.parse(event.data) as { id: RequestId };
  const message =
    'The response was too large to keep for a resumed stream; call the tool again and keep its stream open.';
  return { ...event, data: JSON.stringify(new McpError(ErrorCode.InternalError, message).toResponse(id)) };
}

/** Starts the log of stream `streamId` (its next event at `next`) and returns the sink of its later events. */
export function streamLogSink(
  setup: StreamLogSetup,
  streamId: string,
  sent: LoggedEvent[],
  next: number,
): EventSink {
  const { store, log } = setup;
  const { ends, until } = logTimes(setup.deadline, Date.now());
  const signal = () => deadlineSignal(setup.deadline);
  const caller = callerOf(setup.sessionId, setup.principal);
  const head = { streamId, caller, callId: setup.callId, ends, until, sent, next };
  const started: Promise<boolean> = store.startLog(head, signal()).then(
    () => true,
    (error: unknown) => {
      log.error('call state write failed: the stream log could not start, so the stream cannot be resumed', {
        error: errorFields(error),
      });
      return false;
    },
  );
  const write = async (event: LoggedEvent): Promise<boolean> => {
    try {
      await store.appendEvent({ streamId, event: fitted(event, log), until }, signal());
    } catch (error) {
      log.error('call state write failed: the rest of the stream log is lost', { error: errorFields(error) });
      return false;
    }
    wake(logWaitKey(streamId));
    return true;
  };
  let chain = started;
  log.debug('stream log started', { next, sent: sent.length });
  return {
    started,
    append(event) {
      chain = chain.then((ok) => ok && write(event));
    },
    drained: () => chain.then(() => undefined),
  };
}
