import { anySignal, deadlineSignal } from '../deadline.ts';
import { Defaults } from '../limits.ts';
import type { ObjectAttributes, StorageWriter } from '../storage/storage.ts';

/** One object of an output to write. */
export interface ObjectWrite {
  key: string;
  body: Uint8Array;
  attributes: ObjectAttributes;
}

/** How a store failed, and what was left behind: for the log line and the answer. */
export interface StoreFailure {
  error: unknown;
  /** The invocation's deadline ended it (rather than a storage error). */
  timedOut: boolean;
  /** Objects whose write had started (any of them may have landed). */
  started: number;
  /** Of those, how many were deleted again (the others expire with the bucket's lifecycle rule). */
  removed: number;
}

/** Most time spent removing the objects of a failed store. */
const CLEANUP_MS = 2_000;

/**
 * Writes every object of one store, at most `concurrency` at a time, all or nothing: at the first failure no
 * further write starts, the writes in flight are aborted, and every object whose write had started is deleted,
 * best effort (an aborted write may still have landed). Every call is bounded by the invocation's deadline.
 * Returns undefined when everything was written.
 */
export async function writeAll(
  storage: StorageWriter,
  writes: readonly ObjectWrite[],
  options: { concurrency: number; deadline?: number },
): Promise<StoreFailure | undefined> {
  const outOfTime = deadlineSignal(options.deadline);
  const stop = new AbortController();
  const signal = anySignal(outOfTime, stop.signal);
  const started: string[] = [];
  let failure: { error: unknown } | undefined;
  let next = 0;
  const worker = async () => {
    while (failure === undefined && next < writes.length) {
      const write = writes[next++]!;
      started.push(write.key);
      try {
        await storage.put(write.key, write.body, write.attributes, { ...(signal ? { signal } : {}) });
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          stop.abort(error);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, writes.length) }, worker));
  if (failure === undefined) return undefined;
  return {
    error: failure.error,
    timedOut: outOfTime?.aborted === true,
    started: started.length,
    removed: await removeAll(storage, started, options.deadline),
  };
}

/** Deletes what a failed store may have written; how many deletions succeeded. Never throws. */
async function removeAll(
  storage: StorageWriter,
  keys: readonly string[],
  deadline?: number,
): Promise<number> {
  if (!storage.delete || keys.length === 0) return 0;
  // Within half the answer margin of the deadline: the answer itself must still go out in time.
  const signal = anySignal(
    AbortSignal.timeout(CLEANUP_MS),
    deadlineSignal(deadline, Defaults.answerMarginMs / 2),
  );
  const results = await Promise.allSettled(
    keys.map((key) => storage.delete!(key, { ...(signal ? { signal } : {}) })),
  );
  return results.filter((r) => r.status === 'fulfilled').length;
}
