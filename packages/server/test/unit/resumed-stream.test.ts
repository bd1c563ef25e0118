import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { memoryStreamLog } from '../../src/call-state/memory-stream-log.ts';
import type { LoggedEvent, StreamHead, StreamLog } from '../../src/call-state/stores.ts';
import type { StreamingInvocationContext } from '../../src/wire/types.ts';
import { silentLogger } from '../../src/log.ts';
import { newStreamId } from '../../src/resume/event-ids.ts';
import { resumedStream } from '../../src/resume/resumed-stream.ts';

// The resumed stream on its own (SEP-1699): what a GET with Last-Event-ID replays from a log, against a store whose
// reads take time, as DynamoDB's do.

const note = (position: number): LoggedEvent => ({
  position,
  data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n: position } }),
});
const response = (position: number): LoggedEvent => ({
  position,
  data: JSON.stringify({ jsonrpc: '2.0', id: 'c1', result: { content: [] } }),
  last: true,
});

/** A memory log whose reads take `readMs` and stop when their signal fires (as an SDK call does). */
function slowLog(readMs: number): StreamLog {
  const log = memoryStreamLog();
  const slow =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const signal = args.at(-1) as AbortSignal | undefined;
      await sleep(readMs, undefined, signal ? { signal } : {});
      return read(...args);
    };
  return { ...log, readHead: slow(log.readHead), readEvent: slow(log.readEvent) };
}

/** A log holding a head (the call's `ends` as given) and `events` after it. */
async function logged(store: StreamLog, ends: number, events: LoggedEvent[]): Promise<StreamHead> {
  const head: StreamHead = {
    streamId: newStreamId(),
    caller: 'caller',
    callId: 'c1',
    ends,
    until: Date.now() + 60_000,
    sent: [note(1)],
    next: 2,
  };
  await store.startLog(head);
  for (const event of events) await store.appendEvent({ streamId: head.streamId, event, until: head.until });
  return head;
}

const context = (deadline?: number): StreamingInvocationContext => ({
  requestId: 'r',
  log: silentLogger,
  ...(deadline !== undefined ? { deadline } : {}),
  streaming: { disconnected: new AbortController().signal },
});

/** The data of every event the resumed stream sent, read to its end. */
async function dataOf(head: StreamHead, after: number, store: StreamLog, ctx = context()) {
  const body = resumedStream(head, after, {
    callState: { streamLog: store, pollIntervalMs: 20 },
    retryMs: 300,
    heartbeatMs: 60_000,
    ctx,
  }).body;
  const data: string[] = [];
  for await (const chunk of body) {
    const match = /^data: (.*)$/m.exec(chunk);
    if (match) data.push(match[1]!);
  }
  return data;
}

describe('a resumed stream', () => {
  it('after the call has ended, still replays what the call logged, the response last (no "lost" error)', async () => {
    const store = slowLog(5);
    const head = await logged(store, Date.now() - 30_000, [note(2), note(3), response(4)]);
    const data = await dataOf(head, 1, store);
    expect(data).toEqual([note(2).data, note(3).data, response(4).data]);
  });

  it('after the call has ended without its response in the log, says so once the log is read to its end', async () => {
    const store = slowLog(5);
    const head = await logged(store, Date.now() - 30_000, [note(2)]);
    const data = await dataOf(head, 1, store);
    expect(data).toHaveLength(2);
    expect(data[0]).toBe(note(2).data);
    expect(JSON.parse(data[1]!)).toMatchObject({ id: 'c1', error: { code: -32603 } });
  });

  it('ends at once, sending nothing, when the event the client holds was the response and lands in the log late', async () => {
    const store = slowLog(5);
    // The live stream sent the response (position 2) before its write landed; the client resumes from it.
    const head = await logged(store, Date.now() + 3_000, []);
    setTimeout(
      () => void store.appendEvent({ streamId: head.streamId, event: response(2), until: head.until }),
      50,
    );
    const started = Date.now();
    expect(await dataOf(head, 2, store)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('after the call has ended, a read that fails ends the stream with a retry, never with "the result is lost"', async () => {
    const store = slowLog(1);
    const head = await logged(store, Date.now() - 30_000, [response(2)]);
    const failing = { ...store, readEvent: () => Promise.reject(new Error('throttled')) };
    const body = resumedStream(head, 1, {
      callState: { streamLog: failing, pollIntervalMs: 20 },
      retryMs: 300,
      heartbeatMs: 60_000,
      ctx: context(),
    }).body;
    const chunks: string[] = [];
    for await (const chunk of body) chunks.push(chunk);
    expect(chunks.some((chunk) => chunk.includes('"error"'))).toBe(false);
    expect(chunks.at(-1)).toBe('retry: 300\n\n');
  });

  it('logs a run of failed reads once, not once per poll (a store outage does not flood the log)', async () => {
    const store = slowLog(1);
    const head = await logged(store, Date.now() + 300, []);
    const failing = { ...store, readEvent: () => Promise.reject(new Error('throttled')) };
    const warnings: string[] = [];
    const ctx = {
      ...context(),
      log: { ...silentLogger, warn: (message: string) => void warnings.push(message) },
    };
    const body = resumedStream(head, 1, {
      callState: { streamLog: failing, pollIntervalMs: 10 },
      retryMs: 300,
      heartbeatMs: 60_000,
      ctx,
    }).body;
    for await (const _chunk of body);
    expect(warnings.filter((w) => w.includes('read failed'))).toHaveLength(1);
  });
});
