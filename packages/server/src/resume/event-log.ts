import type { RequestId } from '../protocol/types.ts';

/**
 * The event log of resumable streams (SEP-1699), kept in the rendezvous store. A stream's events go only to its
 * client at first, so a short call writes nothing. Once the stream has been open a while, or is cut (the tool
 * closed it, or the client went away), its log starts: a head, bound to the caller, holding the last events the
 * stream had sent (a client may not have received them), then one item per later event. Any instance serves a
 * `GET` with `Last-Event-ID` from it. Items expire: the store's TTL removes them.
 */

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

/** Where resumable streams' events wait for their client. Each call takes the signal that bounds it. */
export interface EventLog {
  /** Starts the log of a stream. */
  startLog(head: StreamHead, signal?: AbortSignal): Promise<void>;
  /** Appends an event after the head (positions `head.next`, `head.next + 1`, ... in order). */
  appendEvent(streamId: string, event: LoggedEvent, until: number, signal?: AbortSignal): Promise<void>;
  /** The head of a stream's log, or undefined when none was started (or it expired). */
  readHead(streamId: string, now: number, signal?: AbortSignal): Promise<StreamHead | undefined>;
  /** The event at `position` after the head, or undefined while it has not been logged. */
  readEvent(streamId: string, position: number, signal?: AbortSignal): Promise<LoggedEvent | undefined>;
}

/**
 * Event logs in this process's memory (the memory rendezvous store's part). Each log keeps its own events, so an
 * expired one is removed whole, at no cost in the others' events; expired logs are removed as new ones start.
 */
export function memoryEventLog(): EventLog {
  const logs = new Map<string, { head: StreamHead; events: Map<number, LoggedEvent> }>();
  const sweep = (now: number) => {
    for (const [id, { head }] of logs) if (head.until <= now) logs.delete(id);
  };
  const live = (streamId: string, now: number) => {
    const log = logs.get(streamId);
    return log && log.head.until > now ? log : undefined;
  };
  return {
    async startLog(head) {
      sweep(Date.now());
      logs.set(head.streamId, { head: structuredClone(head), events: new Map() });
    },
    async appendEvent(streamId, event) {
      live(streamId, Date.now())?.events.set(event.position, { ...event });
    },
    async readHead(streamId, now) {
      const log = live(streamId, now);
      return log && structuredClone(log.head);
    },
    async readEvent(streamId, position) {
      const event = logs.get(streamId)?.events.get(position);
      return event && { ...event };
    },
  };
}

/** Where a stream's events go once its log has started: written in order, each bounded by the invocation's deadline. */
export interface EventSink {
  /** Settles once the head is written: whether it was (a stream whose log could not start cannot be resumed). */
  started: Promise<boolean>;
  /** Logs the next event. */
  append(event: LoggedEvent): void;
  /** Settles once every appended event is written or given up on (never rejects). */
  drained(): Promise<void>;
}
