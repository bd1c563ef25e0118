import type { Principal } from '../contracts/principal.ts';
import type { RevisionCodec } from '../codec/codec.ts';
import type { LiveChannel } from '../live-channel.ts';
import type { Logger } from '../log.ts';
import type { Session } from '../sessions/session-id.ts';
import type { JSONObject, JSONRPCNotification, JSONRPCResponse, RequestId } from '../protocol/types.ts';

/** What a method handler knows of the request it answers, besides its params. */
export interface MethodContext {
  /** The JSON-RPC id of the request. */
  id: RequestId;
  /** Invocation id (Lambda request id or the local server's). */
  requestId: string;
  /** Epoch milliseconds by which the response must be on its way (the Lambda deadline), if known. */
  deadline?: number;
  /** The authenticated caller; absent when authorization is off. */
  principal?: Principal;
  log: Logger;
  /** Everything that differs between protocol revisions. */
  codec: RevisionCodec;
  /** Sends a notification ahead of the response (delivered when the response is an SSE stream, live if it is open). */
  emit(notification: JSONRPCNotification): void;
  /** Aborts when the client goes away (its response stream closed): stop the work, nobody reads the answer. */
  signal?: AbortSignal;
  /** The request's open event stream, when the adapter streams and the client reads one. */
  live?: LiveChannel;
  /** The handshake-era session the request names. */
  session?: Session;
}

/** Answers one method; throws an McpError for a protocol failure. */
type MethodHandler = (params: JSONObject, ctx: MethodContext) => Promise<JSONObject>;

/** How a call ended, as its audit sees it; `durationMs` is how long its work took. */
export interface CallOutcome {
  response: JSONRPCResponse;
  error?: unknown;
  durationMs: number;
}

/**
 * One call of an audited method (a tool call): its work, and the audit fields for the request's log line,
 * whatever the outcome, read from the record the work kept (bytes stored, arguments refused).
 */
export interface AuditedCall {
  run(): Promise<JSONObject>;
  audit(outcome: CallOutcome): Record<string, unknown>;
}

/** One entry of the method table. */
interface MethodSpec {
  handler: MethodHandler;
  /** The answer is a stream by nature (`subscriptions/listen`). */
  stream?: boolean;
  /** For an audited method: each call begins its own record, which its work fills in and its audit reads. */
  begin?(params: JSONObject, ctx: MethodContext): AuditedCall;
}

/** Methods by name, as a capability module registers them. */
export type MethodTable = Readonly<Record<string, MethodSpec>>;

/**
 * The opaque key of what the person owns across their clients (stored outputs, tasks), when authorization is on:
 * `Principal.key`.
 */
export const ownerKey = (ctx: Pick<MethodContext, 'principal'>): { principal?: string } =>
  ctx.principal !== undefined ? { principal: ctx.principal.key } : {};

/**
 * The opaque key of what one client holds (request states, the questions asked of it), when authorization is on:
 * `Principal.clientKey`, so another client of the same person cannot use it.
 */
export const callerKey = (ctx: Pick<MethodContext, 'principal'>): { principal?: string } =>
  ctx.principal !== undefined ? { principal: ctx.principal.clientKey } : {};
