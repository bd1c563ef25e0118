import type { InputRequest } from '../input/input-required.ts';
import type { JSONObject, JSONValue } from '../protocol/types.ts';

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663, schema revision 2026-07-28): a server may answer a
 * `tools/call` with a task handle, and the client polls `tasks/get` until the task holds the result. Wire types are
 * named as in the extension's schema; the record is what the task store keeps.
 */

/** The extension identifier, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** schema: Task `status`. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';

/** Statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'cancelled', 'failed']);

/** schema: `Task`, the operational metadata of a task (a `CreateTaskResult` is a result with exactly these). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Integer milliseconds from creation during which the task stays readable; null for unlimited. */
  ttlMs: number | null;
  /** Suggested polling interval in integer milliseconds. */
  pollIntervalMs?: number;
}

/** schema: `DetailedTask`, a task with the payload of its status (`tasks/get`). */
export interface DetailedTask extends Task {
  inputRequests?: Record<string, InputRequest>;
  /** The original request's result (a CallToolResult), once `completed`. */
  result?: JSONObject;
  /** The JSON-RPC error the request failed with, once `failed`. */
  error?: TaskError;
}

/** A JSON-RPC error object, as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: JSONValue;
}

/** What a task's next run of the tool gets from the client: answers by the tool's own keys, and its state. */
export interface TaskInput {
  responses: Record<string, JSONObject>;
  state?: JSONValue;
}

/**
 * A task as the store keeps it. Times are epoch milliseconds. Everything a run of the tool needs besides the
 * caller (who is never stored: each start carries the live caller of the request that caused it) is here.
 */
export interface TaskRecord {
  taskId: string;
  /** Owner tag of the caller (a hash), when requests are authenticated; part of the storage key. */
  owner?: string;
  /**
   * Client tag of the caller that started the task (`clientTag`, a hash of its client key), when requests are
   * authenticated: its questions are answered by that client only, as a question asked in a request is. Reading
   * and cancelling stay the owner's. A record written before the tag existed has none, and stays the owner's alone.
   */
  client?: string;
  /** Incremented by every write; a write succeeds only over the revision it read (optimistic concurrency). */
  revision: number;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  updatedAt: number;
  /** `createdAt + ttlMs`: from then on the task is gone. */
  expiresAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  /** While `working`: the time by which a worker must renew the lease or finish, else the task has failed. */
  leaseUntil?: number;
  /** The run of the tool that is due or under way (1 for the first); input request keys carry it. */
  round: number;
  /** The run that a worker has claimed (a second delivery of the same start is ignored). */
  claimedRound?: number;
  tool: string;
  arguments: JSONObject;
  /** What the due run gets: the answers to the previous round's input requests and the tool's state. */
  input?: TaskInput;
  /** Outstanding input requests, by wire key (`<round>.<tool's key>`), while `input_required`. */
  inputRequests?: Record<string, InputRequest>;
  /** Answers received so far for the outstanding requests, by wire key. */
  inputResponses?: Record<string, JSONObject>;
  result?: JSONObject;
  error?: TaskError;
}

/** How a task is addressed in the store: its id within its caller's key space. */
export interface TaskKey {
  taskId: string;
  owner?: string;
}
