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

/** Event logs in this process's memory (the memory rendezvous store's part). */
export function memoryEventLog(): EventLog {
  const heads = new Map<string, StreamHead>();
  const events = new Map<string, LoggedEvent>();
  const key = (streamId: string, position: number) => `${streamId}.${position}`;
  const sweep = (now: number) => {
    for (const [id, head] of heads)
      if (head.until <= now) {
        heads.delete(id);
        for (const k of events.keys()) if (k.startsWith(`${id}.`)) events.delete(k);
      }
  };
  return {
    async startLog(head) {
      sweep(Date.now());
      heads.set(head.streamId, structuredClone(head));
    },
    async appendEvent(streamId, event) {
      if (heads.has(streamId)) events.set(key(streamId, event.position), { ...event });
    },
    async readHead(streamId, now) {
      const head = heads.get(streamId);
      return head && head.until > now ? structuredClone(head) : undefined;
    },
    async readEvent(streamId, position) {
      const event = events.get(key(streamId, position));
      return event && { ...event };
    },
  };
}

/** Where a stream's events go once its log has started: written in order, each bounded by the invocation's deadline. */
export interface EventSink {
  /** Logs the next event. */
  append(event: LoggedEvent): void;
  /** Settles once every appended event is written or given up on (never rejects). */
  drained(): Promise<void>;
}
