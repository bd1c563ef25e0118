import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_CANCELLED,
  watchCancellation,
  type CancelWatchSetup,
} from '../../src/call-state/cancel-watch.ts';
import { wake } from '../../src/call-state/waiting.ts';
import type { Logger } from '../../src/log.ts';
import { Defaults } from '../../src/limits.ts';

// The watch of a running call for its client's cancellation, recorded by another instance: what it reads, when it
// stops, and what it does when the store fails. The store is a stand-in that counts its reads.

let slots = 0;

/** A store whose `cancelled` answers from `answers` (the last one repeats), counting reads and their signals. */
function store(answers: (boolean | Error)[]) {
  const signals: AbortSignal[] = [];
  return {
    signals,
    get reads() {
      return signals.length;
    },
    async cancelled(_call: { slot: string; caller: string }, signal?: AbortSignal) {
      signals.push(signal!);
      const answer = answers[Math.min(signals.length, answers.length) - 1]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

/** A logger that keeps its warnings. */
function logger() {
  const warnings: string[] = [];
  const log: Logger = { debug() {}, info() {}, warn: (message) => void warnings.push(message), error() {} };
  return { log, warnings };
}

function setup(over: Partial<CancelWatchSetup> & Pick<CancelWatchSetup, 'store'>): CancelWatchSetup {
  return {
    slot: `slot-${++slots}`,
    caller: 'caller',
    afterMs: 0,
    intervalMs: 10,
    log: logger().log,
    ...over,
  };
}

/** Waits until `done()` holds (the watch runs on its own timers). */
async function until(done: () => boolean) {
  while (!done()) await sleep(5);
}

describe('the watch of a running call for its cancellation', () => {
  it('sees a cancellation recorded after it started: cancels once, with the reason, and reads no more', async () => {
    const fake = store([false, false, true]);
    const cancels: string[] = [];
    watchCancellation(setup({ store: fake }), (reason) => void cancels.push(reason));
    await until(() => cancels.length > 0);
    expect(cancels).toEqual([CLIENT_CANCELLED]);
    expect(fake.reads).toBe(3);
    await sleep(60);
    expect(fake.reads).toBe(3);
  });

  it('stops reading when the call ends, and a call that ends before the first read reads nothing', async () => {
    const fake = store([false]);
    const stop = watchCancellation(setup({ store: fake }), () => expect.unreachable());
    await until(() => fake.reads >= 2);
    stop();
    const reads = fake.reads;
    await sleep(60);
    expect(fake.reads).toBe(reads);

    const short = store([true]);
    const stopShort = watchCancellation(setup({ store: short, afterMs: 10_000 }), () => expect.unreachable());
    await sleep(30);
    stopShort();
    expect(short.reads).toBe(0);
  });

  it('does not cancel a call that ended while its read was on its way', async () => {
    let release!: (cancelled: boolean) => void;
    const slow = {
      reads: 0,
      cancelled: () => (slow.reads++, new Promise<boolean>((resolve) => (release = resolve))),
    };
    const cancels: string[] = [];
    const stop = watchCancellation(setup({ store: slow }), (reason) => void cancels.push(reason));
    await until(() => slow.reads === 1);
    stop();
    release(true);
    await sleep(30);
    expect(cancels).toEqual([]);
  });

  it('bounds every read by the invocation deadline, and stops reading at it', async () => {
    const fake = store([false]);
    // The reads stop an answer margin before the deadline: 80 ms from now.
    const deadline = Date.now() + Defaults.answerMarginMs + 80;
    watchCancellation(setup({ store: fake, deadline }), () => expect.unreachable());
    await until(() => fake.reads >= 1);
    await until(() => fake.signals.at(-1)!.aborted);
    const reads = fake.reads;
    await sleep(60);
    expect(fake.reads).toBe(reads);
    expect(fake.signals.every((signal) => signal === fake.signals[0])).toBe(true);
  });

  it('logs a run of failed reads once and keeps watching: a cancellation after them still ends the call', async () => {
    const failure = new Error('ProvisionedThroughputExceededException');
    const fake = store([failure, failure, failure, failure, true]);
    const { log, warnings } = logger();
    const cancels: string[] = [];
    watchCancellation(setup({ store: fake, log }), (reason) => void cancels.push(reason));
    await until(() => cancels.length > 0);
    expect(fake.reads).toBe(5);
    expect(warnings).toEqual(['cancellation read failed; reading on (logged once per call)']);
  });

  it('reads at once when a cancellation reaches this same process, long before its first read was due', async () => {
    const fake = store([true]);
    const watch = setup({ store: fake, afterMs: 60_000, intervalMs: 60_000 });
    const cancels: string[] = [];
    watchCancellation(watch, (reason) => void cancels.push(reason));
    await sleep(10);
    expect(fake.reads).toBe(0);
    wake(watch.slot);
    await until(() => cancels.length > 0);
    expect(fake.reads).toBe(1);
  });
});
