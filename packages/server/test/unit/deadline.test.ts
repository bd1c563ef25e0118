import { describe, expect, it } from 'vitest';
import { deadlineSignal, untilAborted } from '../../src/deadline.ts';
import type { ResourceProvider } from '../../src/index.ts';
import { createStoredReadHandler, silentLogger } from '../../src/faces/lambda.ts';

describe('signals derived from the invocation deadline', () => {
  it('there is no signal without a deadline', () => {
    expect(deadlineSignal(undefined)).toBeUndefined();
  });

  it('fires the answer margin before the deadline', async () => {
    const deadline = Date.now() + 1_100;
    const signal = deadlineSignal(deadline, 1_000)!;
    expect(signal.aborted).toBe(false);
    await new Promise((resolve) => signal.addEventListener('abort', resolve));
    expect(Date.now()).toBeLessThan(deadline);
  });

  it('has already fired when the deadline is closer than the margin', () => {
    expect(deadlineSignal(Date.now() + 10, 1_000)!.aborted).toBe(true);
  });

  it('stops one caller waiting while the shared work goes on', async () => {
    let finish!: (value: string) => void;
    const work = new Promise<string>((resolve) => (finish = resolve));
    const controller = new AbortController();
    const waiting = untilAborted(work, controller.signal);
    controller.abort(new Error('out of time'));
    await expect(waiting).rejects.toThrow('out of time');
    finish('done');
    await expect(untilAborted(work, new AbortController().signal)).resolves.toBe('done');
  });
});

describe('the companion function bounds its storage read by its own remaining time', () => {
  it('answers unavailable before its Lambda time runs out when storage never answers', async () => {
    const never: ResourceProvider = {
      owns: () => true,
      read: (_uri, ctx) =>
        new Promise((_resolve, reject) =>
          ctx.signal!.addEventListener('abort', () => reject(ctx.signal!.reason)),
        ),
    };
    const handle = createStoredReadHandler(never, silentLogger);
    const deadline = Date.now() + 1_200;
    const answer = await handle(
      { version: 1, uri: 'mcp-output://outputs/x', requestId: 'r', era: 'legacy' },
      { getRemainingTimeInMillis: () => deadline - Date.now() },
    );
    expect(answer).toEqual({ version: 1, status: 'unavailable' });
    expect(Date.now()).toBeLessThan(deadline);
  });
});
