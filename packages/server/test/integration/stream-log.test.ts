import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerOf } from '../../src/call-state/ids.ts';
import { dynamoCallStateStores } from '../../src/call-state/dynamodb.ts';
import { memoryCallStateStores } from '../../src/call-state/memory.ts';
import type { LoggedEvent, StreamLog } from '../../src/call-state/stores.ts';
import { silentLogger, type Logger } from '../../src/log.ts';
import { newStreamId } from '../../src/resume/event-ids.ts';
import { ResumableStream } from '../../src/resume/resumable-stream.ts';
import { resumedStream } from '../../src/resume/resumed-stream.ts';
import { streamLogSink } from '../../src/resume/stream-log.ts';
import {
  streamLogChecks,
  LOCAL_DYNAMO_CREDENTIALS,
  startLocalDynamo,
  type LocalDynamo,
} from '@mcp-lambda/dev/testing';

// The stream log of resumable streams on each store (in memory, and in the call state's DynamoDB table through a
// local DynamoDB): the StreamLog contract (the checks `@mcp-lambda/dev/testing` gives any log), what a stream writes
// once its log starts, and what a resuming GET on another instance reads.

let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startLocalDynamo('stream-log-under-test');
});
afterAll(async () => {
  await dynamo?.close();
});

const event = (position: number, data: string, last = false): LoggedEvent => ({
  position,
  data,
  ...(last ? { last } : {}),
});
const response = (id: number, text: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

describe.each([
  ['memory', () => memoryCallStateStores().streamLog],
  [
    'DynamoDB',
    () =>
      dynamoCallStateStores({
        table: dynamo.tableName,
        endpoint: dynamo.endpoint,
        credentials: LOCAL_DYNAMO_CREDENTIALS,
      }).streamLog,
  ],
])('the stream log in %s', (_label, makeStore) => {
  for (const check of streamLogChecks(makeStore)) it(check.name, check.run);

  it('writes the head with the caller bound and the events in order, then the response', async () => {
    const store = makeStore();
    const streamId = newStreamId();
    const sink = streamLogSink(
      {
        store,
        callId: 1,
        sessionId: 'session-1',
        principal: 'principal-1',
        deadline: Date.now() + 30_000,
        log: silentLogger,
      },
      streamId,
      [event(1, '{"n":1}')],
      2,
    );
    sink.append(event(2, '{"n":2}'));
    sink.append(event(3, response(9, 'ok'), true));
    await sink.drained();
    const head = (await store.readHead({ streamId, now: Date.now() }))!;
    expect(head.caller).toBe(callerOf('session-1', 'principal-1'));
    expect(head.caller).not.toBe(callerOf('session-1', undefined));
    // Served until the call's deadline plus the grace a client has to come back (5 minutes).
    expect(head.until).toBeGreaterThan(Date.now() + 30_000 + 4 * 60_000);
    expect((await store.readEvent({ streamId, position: 3 }))!.last).toBe(true);
  });

  it("replays the log to a GET that comes after the call's end, the response last", async () => {
    const store = makeStore();
    const streamId = newStreamId();
    const until = Date.now() + 60_000;
    const head = { streamId, caller: 'c', callId: 5, ends: Date.now() - 10_000, until, sent: [], next: 1 };
    await store.startLog(head);
    await store.appendEvent({ streamId, event: event(1, '{"n":1}'), until });
    await store.appendEvent({ streamId, event: event(2, response(5, 'late'), true), until });
    const ctx = {
      requestId: 'r',
      log: silentLogger,
      streaming: { disconnected: new AbortController().signal },
    };
    const body = resumedStream(head, 0, {
      callState: { streamLog: store, pollIntervalMs: 20 },
      retryMs: 1,
      heartbeatMs: 60_000,
      ctx,
    }).body;
    const data: string[] = [];
    for await (const chunk of body) data.push(...(/^data: (.*)$/m.exec(chunk)?.slice(1) ?? []));
    expect(data).toEqual(['{"n":1}', response(5, 'late')]);
  });

  it('logs a response too large for an item as an error the client can act on', async () => {
    const store = makeStore();
    const streamId = newStreamId();
    const warnings: string[] = [];
    const log: Logger = { ...silentLogger, warn: (message) => void warnings.push(message) };
    const sink = streamLogSink({ store, callId: 1, sessionId: 's', log }, streamId, [], 1);
    sink.append(event(1, response(4, 'x'.repeat(400 * 1024)), true));
    await sink.drained();
    const logged = JSON.parse((await store.readEvent({ streamId, position: 1 }))!.data);
    expect(logged).toMatchObject({
      id: 4,
      error: { code: -32603, message: expect.stringMatching(/too large/) },
    });
    expect(warnings).toHaveLength(1);
  });
});

describe('the head of a DynamoDB stream log', () => {
  it('fits its item with the most a stream keeps: 128 KB of events that JSON escaping doubles', async () => {
    const store = dynamoCallStateStores({
      table: dynamo.tableName,
      endpoint: dynamo.endpoint,
      credentials: LOCAL_DYNAMO_CREDENTIALS,
    }).streamLog;
    const errors: string[] = [];
    const log: Logger = { ...silentLogger, error: (message) => void errors.push(message) };
    const live = new ResumableStream(60_000, {
      retryMs: 1_000,
      logAfterMs: 60_000,
      log: { store, callId: 1, sessionId: 's', log },
    });
    // '€' is three bytes in UTF-8 for one character; quotes and backslashes double when the head is JSON.
    const noisy = {
      jsonrpc: '2.0' as const,
      method: 'notifications/message',
      params: { data: '€€€€€€€"\\'.repeat(1_000) },
    };
    for (let n = 0; n < 40; n++) live.send(noisy);
    live.cut();
    live.end();
    let streamId = '';
    for await (const chunk of live) streamId ||= /^id: ([^.]+)\./m.exec(chunk)![1]!;
    await live.drained();
    expect(errors).toEqual([]);
    const head = (await store.readHead({ streamId, now: Date.now() }))!;
    expect(head.sent.length).toBeGreaterThan(0);
    expect(head.sent.length).toBeLessThan(32);
  });
});

describe('a stream log whose store fails', () => {
  it('stops at the first failed write (a reader cannot skip it), says so once, and never rejects', async () => {
    const store = memoryCallStateStores().streamLog;
    const failing: StreamLog = {
      ...store,
      appendEvent: async (...args) => {
        if (args[0].event.position === 2) throw new Error('throttled');
        return store.appendEvent(...args);
      },
    };
    const errors: string[] = [];
    const log: Logger = { ...silentLogger, error: (message) => void errors.push(message) };
    const streamId = newStreamId();
    const sink = streamLogSink({ store: failing, callId: 1, sessionId: 's', log }, streamId, [], 1);
    sink.append(event(1, '{"n":1}'));
    sink.append(event(2, '{"n":2}'));
    sink.append(event(3, '{"n":3}'));
    await sink.drained();
    expect(await store.readEvent({ streamId, position: 1 })).toBeDefined();
    expect(await store.readEvent({ streamId, position: 3 })).toBeUndefined();
    expect(errors).toEqual(['call state write failed: the rest of the stream log is lost']);
  });

  it('bounds every write by the invocation deadline', async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const store = memoryCallStateStores().streamLog;
    const watching: StreamLog = {
      ...store,
      startLog: async (head, signal) => void seen.push(signal),
      appendEvent: async (_to, signal) => void seen.push(signal),
    };
    const sink = streamLogSink(
      { store: watching, callId: 1, sessionId: 's', deadline: Date.now() + 1_500, log: silentLogger },
      newStreamId(),
      [],
      1,
    );
    sink.append(event(1, '{}'));
    await sink.drained();
    expect(seen).toHaveLength(2);
    for (const signal of seen) expect(signal).toBeInstanceOf(AbortSignal);
    await sleep(600);
    // The answer margin (1 s) before the deadline: the writes' signals have fired by now.
    expect(seen.every((s) => s!.aborted)).toBe(true);
  });
});
