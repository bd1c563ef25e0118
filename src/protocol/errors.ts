/** JSON-RPC and MCP error codes, named as in the specification schema. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Generic transport-level rejection (implementation-defined range). */
  ServerError: -32000,
  /** Handshake-era "resource not found" (2025-xx revisions). */
  ResourceNotFound: -32002,
  /** 2026-07-28: a required HTTP header is missing or disagrees with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the requested protocol version is not served here. */
  UnsupportedProtocolVersion: -32022,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * A protocol failure. Thrown by method handlers and turned into a JSON-RPC error response in exactly one
 * place (the dispatcher); `httpStatus` lets the transport pick a status where the spec names one.
 */
export class McpError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = 'McpError';
  }
}
