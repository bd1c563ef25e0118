import type { Logger } from '../log.ts';
import { errorFields } from '../log.ts';
import { isExpired, lapse } from './policy.ts';
import type { TaskStore, TaskStoreCallOptions } from './store.ts';
import type { TaskKey, TaskRecord } from './types.ts';

/** How many times a change is re-applied over a record that another writer changed first. */
const MAX_ATTEMPTS = 8;

/** Reading and changing task records the way every part of the feature must: expiry, lapsed leases, retries. */
export interface TaskRecords {
  /**
   * The live record: undefined when there is none or it expired (never before its ttlMs). A working task whose
   * worker stopped renewing its lease is recorded as failed first, so that outcome is lasting.
   */
  read(key: TaskKey, options?: TaskStoreCallOptions & { log?: Logger }): Promise<TaskRecord | undefined>;
  /**
   * Applies a transition to the live record and writes it over the revision it read, re-reading when another
   * writer got there first. Returns the written record, or undefined when the transition did not apply.
   */
  update(
    key: TaskKey,
    change: (record: TaskRecord) => TaskRecord | undefined,
    options?: TaskStoreCallOptions,
  ): Promise<TaskRecord | undefined>;
}

/**
 * Task records over a store, with the clock that decides expiry and leases. Every store call of one `read` or
 * `update` takes the caller's signal (the invocation's deadline), retries included.
 */
export function taskRecords(store: TaskStore, now: () => number): TaskRecords {
  const live = async (key: TaskKey, call: TaskStoreCallOptions): Promise<TaskRecord | undefined> => {
    const record = await store.get(key, call);
    return record && !isExpired(record, now()) ? record : undefined;
  };

  const update: TaskRecords['update'] = async (key, change, options = {}) => {
    const call = options.signal ? { signal: options.signal } : {};
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const record = await live(key, call);
      if (!record) return undefined;
      const changed = change(record);
      if (!changed) return undefined;
      if (await store.replace(changed, call)) return changed;
    }
    throw new Error(`task record kept changing under ${MAX_ATTEMPTS} attempts to write it`);
  };

  return {
    async read(key, options = {}) {
      const { log } = options;
      const call = options.signal ? { signal: options.signal } : {};
      const record = await live(key, call);
      if (!record) return undefined;
      const lapsed = lapse(record, now());
      if (!lapsed) return record;
      log?.warn('task worker stopped without an outcome', { taskId: record.taskId, tool: record.tool });
      try {
        return (await update(key, (current) => lapse(current, now()), call)) ?? (await live(key, call));
      } catch (error) {
        // The failure is still what the client must see; writing it down is retried by the next read.
        log?.warn('could not record a lapsed task', { taskId: record.taskId, error: errorFields(error) });
        return lapsed;
      }
    },
    update,
  };
}
