import { Platform } from '../limits.ts';
import type { JSONObject, RequestId } from '../protocol/types.ts';

/**
 * The call state of the handshake era (streaming API): what a call keeps between the requests of its client, each of
 * which may land on another instance. Three stores, which may share one table:
 *
 * - questions: a question asked mid-call waits for its answer. It is recorded first, bound to the caller and to an
 *   unguessable id; the answer (a new POST, on any instance) is written to it only if it still waits, for that id and
 *   that caller (a conditional write: a replay, a late answer or another caller's finds nothing to answer); the
 *   waiting call reads it back.
 * - cancellations: the client's `notifications/cancelled` of a call, recorded in the call's slot whether or not a
 *   question waits there, so the running call sees it on any instance (cancel-watch.ts). The questions and the
 *   cancellations of one call state share their slots: a cancellation settles the slot's waiting question, and no
 *   question is opened in a cancelled slot.
 * - the stream log: the events of a cut stream (SEP-1699), kept for its client to resume it with `GET` and
 *   `Last-Event-ID` on any instance (resume/).
 *
 * Every method takes its arguments as one object and the signal that bounds it (the invocation's deadline, the
 * tool's budget). Items expire: the store's TTL removes what a crash left behind.
 */

/**
 * How long a cancellation recorded without a question is kept: the longest a call can run (a streaming function's
 * time limit), so it outlives any call it can name.
 */
export const CANCELLATION_LIFETIME_MS = Platform.restStreamingMaxSeconds * 1000;

/** A question waiting for its answer. */
export interface Question {
  /** The call's slot: a digest of the caller and the call's JSON-RPC id (one question at a time per call). */
  slot: string;
  /** The question's unguessable part of its JSON-RPC id. */
  askId: string;
  /** Digest of the session and the authenticated caller the question was asked of. */
  caller: string;
  /** Epoch ms after which no answer is taken. */
  expiresAt: number;
}

/** What the client sent back: its result, its JSON-RPC error, or why its answer could not be used. */
export type Answer =
  { result: JSONObject } | { error: { code: number; message: string } } | { failure: string };

/** What became of a question that no longer waits. */
export type Settled = { state: 'answered'; answer: Answer } | { state: 'cancelled' } | { state: 'gone' };

/** Why an answer or a cancellation was refused (for the log; the client is told the same thing for each). */
export type Refusal = 'unknown' | 'other-caller' | 'settled' | 'expired';

/** Where mid-call questions wait for their answers. */
export interface QuestionStore {
  /** Records a question; false, recording nothing, when the client has cancelled its call already. */
  open(question: Question, signal?: AbortSignal): Promise<boolean>;
  /** Records the answer if the question waits for it from this caller; else why not. */
  answer(
    to: { slot: string; askId: string; caller: string; answer: Answer; now: number },
    signal?: AbortSignal,
  ): Promise<true | Refusal>;
  /** The question's outcome, or undefined while it still waits. */
  read(
    question: { slot: string; askId: string; now: number },
    signal?: AbortSignal,
  ): Promise<Settled | undefined>;
  /**
   * Removes or closes the question (answered, given up): a later answer then finds nothing to answer. Settles with
   * the answer it held when closed, if any: closing and an answer being written are atomic, so exactly one of them
   * wins; closing again hands back the same answer.
   */
  close(question: { slot: string; askId: string }, signal?: AbortSignal): Promise<Answer | undefined>;
}

/** Where the client's cancellations of its calls wait for the calls to see them. */
export interface CancellationStore {
  /**
   * Records the client's cancellation of a call (`notifications/cancelled`) in its slot, question or not: a waiting
   * question settles as cancelled, a later one is not asked, an answer already given stays. Refused (`settled`)
   * when the call is cancelled already, or when the slot holds another caller's question.
   */
  cancel(call: { slot: string; caller: string; now: number }, signal?: AbortSignal): Promise<true | Refusal>;
  /** Whether this caller has cancelled the call of this slot (a strongly consistent read). */
  cancelled(call: { slot: string; caller: string }, signal?: AbortSignal): Promise<boolean>;
}

/** One event of a stream: its position and its message as JSON text. */
export interface LoggedEvent {
  position: number;
  data: string;
  /** The call's response: the stream ends with it. */
  last?: boolean;
}

/** The head of a stream's log: whose it is, until when it is served, and the last events sent before it. */
export interface StreamHead {
  streamId: string;
  /** Digest of the session and the authenticated caller the stream was opened for. */
  caller: string;
  /** The JSON-RPC id of the call whose stream it is. */
  callId: RequestId;
  /** Epoch ms by which the call has ended (its invocation's deadline): no event comes later. */
  ends: number;
  /** Epoch ms after which the log is not served. */
  until: number;
  /** Events sent on the POST stream before the log started, oldest first (only the most recent are kept). */
  sent: LoggedEvent[];
  /** Position of the first event logged after the head, each an item of its own. */
  next: number;
}

/**
 * Where resumable streams' events wait for their client (SEP-1699). A stream's events go only to its client at
 * first, so a short call writes nothing. Once the stream has been open a while, or is cut (the tool closed it, or
 * the client went away), its log starts: a head, bound to the caller, holding the last events the stream had sent (a
 * client may not have received them), then one item per later event. Any instance serves a `GET` with
 * `Last-Event-ID` from it.
 */
export interface StreamLog {
  /** Starts the log of a stream. */
  startLog(head: StreamHead, signal?: AbortSignal): Promise<void>;
  /** Appends an event after the head (positions `head.next`, `head.next + 1`, ... in order). */
  appendEvent(
    to: { streamId: string; event: LoggedEvent; until: number },
    signal?: AbortSignal,
  ): Promise<void>;
  /** The head of a stream's log, or undefined when none was started (or it expired). */
  readHead(stream: { streamId: string; now: number }, signal?: AbortSignal): Promise<StreamHead | undefined>;
  /** The event at `position` after the head, or undefined while it has not been logged. */
  readEvent(
    at: { streamId: string; position: number },
    signal?: AbortSignal,
  ): Promise<LoggedEvent | undefined>;
}

/** The call state of a server: its three stores (`memoryCallState()`, `dynamoCallState(...)`). */
export interface CallState {
  questions: QuestionStore;
  cancellations: CancellationStore;
  streamLog: StreamLog;
}

/** The call state as a server reads it: its stores, and how often a waiting call or stream reads them. */
export interface PolledCallState extends CallState {
  /** Reads of a waiting call are this far apart (an answer delivered by this same process wakes it at once). */
  pollIntervalMs: number;
}
