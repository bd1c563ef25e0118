/** Transport settings; see the configuration table in the README. */
export interface TransportOptions {
  /** The one MCP endpoint path. */
  path: string;
  /** Origins allowed to call (exact, `scheme://host:*`, or `*`). An absent Origin is always allowed. */
  allowedOrigins: readonly string[];
  /** Host header values accepted (DNS-rebinding guard for local servers); undefined = any. */
  allowedHosts?: readonly string[];
  /** Largest accepted body in bytes; larger → 413. */
  maxBodyBytes: number;
  /** While a streamed response is open, a keep-alive comment goes out this often (ms). Default 60,000. */
  streamHeartbeatMs?: number;
  /**
   * The `retry` (ms) a resumable stream tells its client (SEP-1699): how long it waits before it resumes a cut
   * stream with `GET` and `Last-Event-ID` (docs/streaming.md). Default 1,000.
   */
  streamRetryMs?: number;
  /**
   * A resumable stream still open after this long (ms) starts writing its events to the log too, so that a client
   * whose connection broke unseen (Lambda does not report one) still resumes it; a stream that ends sooner writes
   * nothing, and one the tool cuts starts its log then. 0 logs every resumable stream from its first event.
   * Default 10,000 (docs/streaming.md).
   */
  streamLogAfterMs?: number;
}
