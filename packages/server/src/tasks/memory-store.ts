import { storageKey, TaskStoreError, type TaskStore, type TaskStoreCallOptions } from './store.ts';
import type { TaskKey, TaskRecord } from './types.ts';

/** An aborted call fails as a remote store's would, so callers meet the same failure in tests. */
function checkSignal(operation: 'create' | 'get' | 'replace', options: TaskStoreCallOptions | undefined) {
  const signal = options?.signal;
  if (signal?.aborted) throw new TaskStoreError(operation, { cause: signal.reason });
}

/**
 * Task records in a Map, serialized as the durable store serializes them (no object is shared with a caller): for
 * `npm start`, tests and single-process embedding. Every instance of a deployed function needs the same records,
 * which is what the DynamoDB store is for.
 */
export function memoryTaskStore(): TaskStore & { readonly size: number } {
  const records = new Map<string, string>();
  return {
    get size() {
      return records.size;
    },
    async create(record, options) {
      checkSignal('create', options);
      const key = storageKey(record);
      if (records.has(key)) throw new Error('a task with this id exists');
      records.set(key, JSON.stringify(record));
    },
    async get(key: TaskKey, options) {
      checkSignal('get', options);
      const stored = records.get(storageKey(key));
      return stored === undefined ? undefined : (JSON.parse(stored) as TaskRecord);
    },
    async replace(record, options) {
      checkSignal('replace', options);
      const key = storageKey(record);
      const stored = records.get(key);
      if (stored === undefined || (JSON.parse(stored) as TaskRecord).revision !== record.revision - 1)
        return false;
      records.set(key, JSON.stringify(record));
      return true;
    },
  };
}
