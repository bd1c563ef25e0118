import type { TaskKey, TaskRecord } from './types.ts';

/**
 * Durable task records, as one small interface the core receives (docs/tasks.md): `dynamodb-records.ts` implements
 * it for AWS, `memory-store.ts` for one process. A store knows nothing of task semantics; expiry and state
 * transitions are decided in `policy.ts` and applied through `records.ts`.
 */
export interface TaskStore {
  /** Writes a new record; resolves only once a `get` anywhere would find it. Throws if the key exists. */
  create(record: TaskRecord, options?: TaskStoreCallOptions): Promise<void>;
  /** The record stored under the key, or undefined when there is none. */
  get(key: TaskKey, options?: TaskStoreCallOptions): Promise<TaskRecord | undefined>;
  /**
   * Replaces the record if the stored one still has revision `record.revision - 1`; false when another writer got
   * there first (the caller reads again and retries its change).
   */
  replace(record: TaskRecord, options?: TaskStoreCallOptions): Promise<boolean>;
}

/** Per-call options of a task store operation (as for storage calls). */
export interface TaskStoreCallOptions {
  /**
   * Aborts the call, which then fails with a TaskStoreError: the invocation's deadline (`packages/server/src/deadline.ts`). An
   * aborted write may still have landed.
   */
  signal?: AbortSignal;
}

/** The storage key of a task: the caller's owner tag (or `-` when requests are not authenticated) and the id. */
export const storageKey = (key: TaskKey): string => `${key.owner ?? '-'}/${key.taskId}`;

/** The task store failed (unreachable, refused, timed out). The message is for logs; clients get a generic one. */
export class TaskStoreError extends Error {
  constructor(operation: 'create' | 'get' | 'replace', options?: { cause?: unknown }) {
    const cause = options?.cause;
    super(
      `task store ${operation} failed: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`,
      options,
    );
    this.name = 'TaskStoreError';
  }
}
