import type { ProtectedResourceMetadata } from './metadata.ts';
import type { Principal } from '../contracts/principal.ts';

/** What an authenticator may look at: only the path and the headers (tokens travel in the header only). */
export interface AuthRequest {
  path: string;
  /** Header names in lower case, as the neutral HTTP request carries them. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Epoch ms at which the invocation is stopped: waiting for the issuer ends in time to answer 503 before it. */
  deadline?: number;
}

/**
 * A refusal the transport sends as is: the status, its headers (a `WWW-Authenticate` challenge per RFC 6750 §3
 * with RFC 9728 §5.1's `resource_metadata` on 401 and 403; `Retry-After` on 503) and a message for the JSON-RPC
 * error body. 503 means the server could not check the token (its issuer's keys are unreachable), which is not
 * the client's fault and must not send it back to the authorization server.
 */
export interface AuthRejection {
  status: 401 | 403 | 503;
  headers: Record<string, string>;
  message: string;
  /** Why the server could not decide (503 only), for the operator's log; never sent to the client. */
  cause?: string;
}

/** The outcome of authenticating one request. */
export type Authentication = { ok: true; principal: Principal } | { ok: false; rejection: AuthRejection };

/**
 * Decides who is calling before anything is dispatched. The HTTP transport calls `authenticate` for every request
 * to the MCP endpoint, serves `metadataFor` documents on GET, and asks `insufficientScope` for the 403 of a call
 * whose tool needs more scopes than the token grants.
 */
export interface Authenticator {
  authenticate(request: AuthRequest): Promise<Authentication>;
  /** The 403 answer for a valid token that lacks `required` scopes (RFC 6750 §3.1 `insufficient_scope`). */
  insufficientScope(required: readonly string[]): AuthRejection;
  /** The RFC 9728 document when `path` is one of its well-known paths, else undefined. */
  metadataFor(path: string): ProtectedResourceMetadata | undefined;
}
