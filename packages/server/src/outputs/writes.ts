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
  /** The call ended it (the invocation's deadline, the call's budget, a cancellation), not a storage error. */
  timedOut: boolean;
  /** Objects whose write had started (any of them may have landed). */
  started: number;
  /** Of those, how many were deleted again (the others expire with the bucket's lifecycle rule). */
  removed: number;
}

/** Most time spent removing the objects of a failed store. */
const CLEANUP_MS = 2_000;

/**
 * The writes of one store, all or nothing, at most `concurrency` at a time, added while the output is still being
 * produced: `add` waits while that many are in flight, so a fast producer never gets ahead of storage by more than
 * `concurrency` objects (this is what bounds the memory of a streamed output). At the first failure no further
 * write starts, the writes in flight are aborted (so is everything when `signal` fires), and `settle` deletes every
 * object whose write had started, best effort (an aborted write may still have landed). Every call is bounded by
 * the invocation's deadline; a write refused because the deadline's margin has come (even the first one, on a call
 * that got there late) fails the store like a failed write.
 */
export class WriteQueue {
  private readonly outOfTime: AbortSignal | undefined;
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal | undefined;
  private readonly started: string[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;
  private settled: Promise<StoreFailure | undefined> | undefined;

  constructor(
    private readonly storage: StorageWriter,
    private readonly options: { concurrency: number; deadline?: number; signal?: AbortSignal },
  ) {
    this.outOfTime = deadlineSignal(options.deadline);
    this.signal = anySignal(this.outOfTime, this.stop.signal, options.signal);
  }

  /** Whether a write failed (or the queue was aborted): nothing more will be written. */
  get failed(): boolean {
    return this.failure !== undefined || this.signal?.aborted === true;
  }

  /** Starts a write once fewer than `concurrency` are in flight; false when the store has already failed. */
  async add(write: ObjectWrite): Promise<boolean> {
    while (this.inFlight.size >= this.options.concurrency && !this.failed) await Promise.race(this.inFlight);
    if (this.failed) {
      // Out of time or cancelled with no failed write to say so: `settle` must not report the objects written.
      if (this.failure === undefined) this.fail(this.signal?.reason);
      return false;
    }
    this.started.push(write.key);
    const call = this.signal ? { signal: this.signal } : {};
    const done: Promise<void> = this.storage
      .put(write.key, write.body, write.attributes, call)
      .catch((error: unknown) => this.fail(error))
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
    return true;
  }

  /** Stops the store: no further write starts and those in flight are aborted (`settle` then cleans up). */
  fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = { error };
    this.stop.abort(error);
  }

  /**
   * Waits for every write; undefined when all were written, else the failure after removing what was started. Once
   * settled a queue stays settled: asking again gives the same answer without deleting twice.
   */
  settle(): Promise<StoreFailure | undefined> {
    return (this.settled ??= this.settleOnce());
  }

  private async settleOnce(): Promise<StoreFailure | undefined> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    if (this.failure === undefined && this.options.signal?.aborted)
      this.failure = { error: this.options.signal.reason };
    if (this.failure === undefined) return undefined;
    return {
      error: this.failure.error,
      timedOut: this.outOfTime?.aborted === true || this.options.signal?.aborted === true,
      started: this.started.length,
      removed: await removeAll(this.storage, this.started, this.options.deadline),
    };
  }

  /** Keys of every object whose write started, in order. */
  keys(): readonly string[] {
    return this.started;
  }
}

/**
 * Writes every object of one store, at most `concurrency` at a time, all or nothing (see {@link WriteQueue}).
 * Returns undefined when everything was written.
 */
export async function writeAll(
  storage: StorageWriter,
  writes: readonly ObjectWrite[],
  options: { concurrency: number; deadline?: number; signal?: AbortSignal },
): Promise<StoreFailure | undefined> {
  const queue = new WriteQueue(storage, options);
  for (const write of writes) if (!(await queue.add(write))) break;
  return queue.settle();
}

/** Deletes what a failed store may have written; how many deletions succeeded. Never throws. */
export async function removeAll(
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
