import type { JSONRPCNotification, JSONRPCRequest } from './protocol/types.ts';

/**
 * The open end of a per-request event stream (response streaming): the transport opens it (http/live.ts), and the
 * dispatcher, the methods, the codecs and the mid-call askers send on it.
 */
export interface LiveChannel {
  /** Sends a notification, or a request to the client (a mid-call question), now. */
  send(message: JSONRPCNotification | JSONRPCRequest): void;
  /**
   * Ends the HTTP response now while the request goes on; the client resumes its stream with `GET` and
   * `Last-Event-ID` (SEP-1699). Whether it could: only resumable streams can be cut.
   */
  cut(): boolean;
}
