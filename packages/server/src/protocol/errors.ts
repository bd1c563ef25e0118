import { clientText } from './client-text.ts';
import type { JSONRPCErrorResponse, RequestId } from './types.ts';

/** JSON-RPC and MCP error codes, named as in the specification schema. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Generic transport-level rejection (implementation-defined range). */
  ServerError: -32000,
  /** Handshake era: the `Mcp-Session-Id` names no live session (HTTP 404; the code the official SDKs use). */
  SessionNotFound: -32001,
  /** Handshake-era "resource not found" (2025-xx revisions). */
  ResourceNotFound: -32002,
  /** 2026-07-28: a required HTTP header is missing or disagrees with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the requested protocol version is not served here. */
  UnsupportedProtocolVersion: -32022,
} as const;

/**
 * A protocol failure: thrown by method handlers and turned into a JSON-RPC error response in exactly one place
 * (the dispatcher). It carries only its wire shape; the HTTP status is the transport's decision.
 */
export class McpError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpError';
  }

  /** The JSON-RPC error response carrying this error. */
  toResponse(id: RequestId | null): JSONRPCErrorResponse {
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code: this.code,
        message: this.message,
        ...(this.data !== undefined ? { data: this.data } : {}),
      },
    };
  }
}

/** -32602: the params of a request are wrong; the message says how. */
export class InvalidParamsError extends McpError {
  constructor(problem: string, data?: unknown) {
    super(ErrorCode.InvalidParams, `Invalid params: ${problem}`, data);
  }
}

/** -32602 for a tool this server does not have (spec: tools, "Error Handling"). */
export class UnknownToolError extends McpError {
  constructor(name: string) {
    super(ErrorCode.InvalidParams, `Unknown tool: ${clientText(name)}`, { name: clientText(name) });
  }
}

/** -32601: this endpoint has no such method (in this revision, or with the capabilities it advertises). */
export class MethodNotFoundError extends McpError {
  constructor(method: string) {
    super(ErrorCode.MethodNotFound, `Method not found: ${clientText(method)}`);
  }
}

/**
 * A resource that does not exist, expired, or is not the caller's. The code is the revision's: -32002 in the
 * handshake era, -32602 in 2026-07-28 (which forbids -32002); `data.uri` in both.
 */
export class ResourceNotFoundError extends McpError {
  constructor(uri: string, code: number = ErrorCode.ResourceNotFound) {
    super(code, `Resource not found: ${clientText(uri)}`, { uri: clientText(uri) });
  }
}

/** -32603 when a stored output cannot be read right now: says what to do, never why in detail. */
export class OutputUnavailableError extends McpError {
  constructor(requestId: string) {
    super(
      ErrorCode.InternalError,
      `The stored output could not be read right now (request id ${requestId}); try again shortly.`,
    );
  }
}

/** -32603 for a failure the server did not expect; the details stay in the log. */
export class InternalError extends McpError {
  constructor(requestId: string, method?: string) {
    super(
      ErrorCode.InternalError,
      method === undefined
        ? `Internal error (request id ${requestId})`
        : `Internal error while handling ${clientText(method)} (request id ${requestId})`,
    );
  }
}

/** -32022: the request claims a protocol revision this endpoint does not serve. */
export class UnsupportedVersionError extends McpError {
  constructor(requested: string, supported: readonly string[]) {
    super(
      ErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version: ${clientText(requested)}. Supported: ${supported.join(', ')}`,
      { supported: [...supported], requested: clientText(requested) },
    );
  }
}

/** -32020: a 2026-07-28 routing header is missing, malformed or disagrees with the body. */
export class HeaderMismatchError extends McpError {
  constructor(header: string, detail: string) {
    super(ErrorCode.HeaderMismatch, `Header mismatch: ${detail}`, { header });
  }
}

/** -32021: the request needs a client capability the client did not declare (2026-07-28 basic/lifecycle). */
export class MissingCapabilityError extends McpError {
  constructor(required: Readonly<Record<string, object>>) {
    super(
      ErrorCode.MissingRequiredClientCapability,
      `Missing required client capability: ${Object.keys(required).join(', ')}. ` +
        'Declare it in io.modelcontextprotocol/clientCapabilities to use this feature.',
      { requiredCapabilities: required },
    );
  }
}

/** A caller whose token lacks a tool's scopes (RFC 6750 §3.1 `insufficient_scope`); the transport answers 403. */
export class InsufficientScopeError extends McpError {
  constructor(
    tool: string,
    readonly requiredScopes: readonly string[],
  ) {
    super(
      ErrorCode.ServerError,
      `Forbidden: tool "${tool}" needs the scope(s) ${requiredScopes.join(', ')}`,
      { requiredScopes },
    );
  }
}

/**
 * -32602 for a task id that names no task of this caller: unknown, expired, or another caller's, all answered
 * alike (tasks extension, "Error Handling").
 */
export class TaskNotFoundError extends McpError {
  constructor(taskId: unknown) {
    const id = typeof taskId === 'string' ? clientText(taskId) : undefined;
    super(
      ErrorCode.InvalidParams,
      id === undefined ? 'Invalid params: taskId must be a string' : `Task not found: ${id}`,
      id === undefined ? undefined : { taskId: id },
    );
  }
}
