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
}
