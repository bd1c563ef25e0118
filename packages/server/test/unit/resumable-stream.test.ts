import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT_CANCELLED } from '../../src/call-state/cancel-watch.ts';
import { callerOf, slotOf } from '../../src/call-state/ids.ts';
import { memoryCallStateStores } from '../../src/call-state/memory.ts';
import { memoryStreamLog } from '../../src/call-state/memory-stream-log.ts';
import { silentLogger } from '../../src/log.ts';
import {
  MAX_LOGGED_BYTES,
  MAX_LOGGED_EVENTS,
  MAX_LOGGED_TOTAL_BYTES,
  ResumableStream,
  resumableStream,
} from '../../src/resume/resumable-stream.ts';

// The resumable stream on its own (SEP-1699): what goes on the wire, what goes to the log and when, and its bounds.

const note = (n: number | string) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/message',
  params: { n },
});
const done = { jsonrpc: '2.0' as const, id: 1, result: { content: [] } };

function stream(logAfterMs = 60_000, store = memoryStreamLog()) {
  const live = new ResumableStream(60_000, {
    retryMs: 500,
    logAfterMs,
    log: { store, callId: 1, sessionId: 'session', log: silentLogger },
  });
  return { live, store };
}

/** Everything the stream put on the wire, once it has ended. */
async function wire(live: ResumableStream): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of live) chunks.push(chunk);
  return chunks;
}
const idOf = (chunk: string) => /^id: (\S+)$/m.exec(chunk)?.[1];

describe('a resumable stream', () => {
  it('opens with the priming event, gives each event the next id, and logs nothing when it ends whole', async () => {
    const { live, store } = stream();
    live.send(note(1));
    live.finish(done);
    const chunks = await wire(live);
    expect(chunks[0]).toMatch(/^id: [A-Za-z0-9_-]{22}\.0\nretry: 500\ndata: \n\n$/);
    const stream0 = idOf(chunks[0]!)!.split('.')[0]!;
    expect(chunks.slice(1).map(idOf)).toEqual([`${stream0}.1`, `${stream0}.2`]);
    await live.drained();
    expect(await store.readHead({ streamId: stream0, now: Date.now() })).toBeUndefined();
  });

  it('once cut, ends its wire as soon as its head is written and sends the rest to the log, the events it had sent first', async () => {
    const { live, store } = stream();
    live.send(note(1));
    expect(live.cut()).toBe(true);
    live.send(note(2));
    live.finish(done);
    const chunks = await wire(live);
    expect(chunks).toHaveLength(2);
    await live.drained();
    const streamId = idOf(chunks[0]!)!.split('.')[0]!;
    const head = (await store.readHead({ streamId, now: Date.now() }))!;
    expect(head.sent.map((e) => e.position)).toEqual([1]);
    expect(head.next).toBe(2);
    expect(await store.readEvent({ streamId, position: 2 })).toMatchObject({ data: JSON.stringify(note(2)) });
    expect(await store.readEvent({ streamId, position: 3 })).toMatchObject({ last: true });
    expect(live.cut()).toBe(true);
  });

  it('starts its log while still open once it has been open logAfterMs, and goes on sending live', async () => {
    const { live, store } = stream(20);
    live.send(note(1));
    await sleep(60);
    live.send(note(2));
    live.finish(done);
    const chunks = await wire(live);
    expect(chunks).toHaveLength(4);
    await live.drained();
    const streamId = idOf(chunks[0]!)!.split('.')[0]!;
    expect((await store.readHead({ streamId, now: Date.now() }))!.sent.map((e) => e.position)).toEqual([1]);
    expect(await store.readEvent({ streamId, position: 3 })).toMatchObject({ last: true });
  });

  it('keeps only its last 32 events for the head: a resume from before them is refused, not served with a gap', async () => {
    const { live, store } = stream();
    for (let n = 1; n <= 40; n++) live.send(note(n));
    live.cut();
    live.finish(done);
    const streamId = idOf((await wire(live))[0]!)!.split('.')[0]!;
    await live.drained();
    const head = (await store.readHead({ streamId, now: Date.now() }))!;
    expect(head.sent.map((e) => e.position)).toEqual(Array.from({ length: 32 }, (_, i) => i + 9));
  });

  it(`logs at most ${MAX_LOGGED_EVENTS} events, each at most ${MAX_LOGGED_BYTES} bytes; the others go out live without an id`, async () => {
    const { live, store } = stream(0);
    live.send(note(0));
    await sleep(5);
    for (let n = 1; n <= MAX_LOGGED_EVENTS + 5; n++) live.send(note(n));
    live.send(note('x'.repeat(MAX_LOGGED_BYTES)));
    live.finish(done);
    const chunks = await wire(live);
    const withoutId = chunks.filter((c) => !idOf(c));
    expect(withoutId).toHaveLength(6);
    await live.drained();
    const streamId = idOf(chunks[0]!)!.split('.')[0]!;
    const last = MAX_LOGGED_EVENTS + 2;
    expect(await store.readEvent({ streamId, position: last })).toMatchObject({ last: true });
  });

  it(`logs at most ${MAX_LOGGED_TOTAL_BYTES} bytes in all: a flood of large events writes a bounded log`, async () => {
    const { live, store } = stream();
    live.cut();
    const big = 'x'.repeat(MAX_LOGGED_BYTES - 100);
    const count = Math.ceil((2 * MAX_LOGGED_TOTAL_BYTES) / big.length);
    for (let n = 0; n < count; n++) live.send(note(big));
    live.finish(done);
    const streamId = idOf((await wire(live))[0]!)!.split('.')[0]!;
    await live.drained();
    let bytes = 0;
    let position = 1;
    for (
      let event = await store.readEvent({ streamId, position });
      event;
      event = await store.readEvent({ streamId, position: ++position })
    ) {
      bytes += Buffer.byteLength(event.data);
      if (event.last) break;
    }
    expect((await store.readEvent({ streamId, position }))?.last).toBe(true);
    expect(bytes).toBeLessThanOrEqual(MAX_LOGGED_TOTAL_BYTES + Buffer.byteLength(JSON.stringify(done)));
    expect(position).toBeGreaterThan(2);
  });

  it('logs a mid-call question past the bounds of notifications: on a cut stream it would otherwise be lost', async () => {
    const { live, store } = stream();
    live.cut();
    for (let n = 1; n <= MAX_LOGGED_EVENTS + 5; n++) live.send(note(n));
    const ask = { jsonrpc: '2.0' as const, id: 'slot.ask', method: 'elicitation/create', params: {} };
    live.send(ask);
    live.finish(done);
    const streamId = idOf((await wire(live))[0]!)!.split('.')[0]!;
    await live.drained();
    const head = (await store.readHead({ streamId, now: Date.now() }))!;
    const logged = await store.readEvent({ streamId, position: head.next + MAX_LOGGED_EVENTS });
    expect(logged?.data).toBe(JSON.stringify(ask));
    expect(await store.readEvent({ streamId, position: head.next + MAX_LOGGED_EVENTS + 1 })).toMatchObject({
      last: true,
    });
  });

  it('is cut, not cancelled, when its client goes away after seeing an id; cancelled when it never saw one', async () => {
    const open = stream();
    const gone = new AbortController();
    const signal = open.live.cancelling(gone.signal);
    open.live.send(note(1));
    gone.abort();
    expect(signal.aborted).toBe(false);
    open.live.finish(done);
    expect(await wire(open.live)).toHaveLength(2);

    const unopened = stream();
    const left = new AbortController();
    const cancelled = unopened.live.cancelling(left.signal);
    left.abort(new Error('gone'));
    expect(cancelled.aborted).toBe(true);
    unopened.live.end();
  });

  it('ends its wire at a cut only once the head is written: a client resuming at once finds the log', async () => {
    const memory = memoryStreamLog();
    const slowHead = {
      ...memory,
      startLog: async (...args: Parameters<typeof memory.startLog>) => {
        await sleep(100);
        return memory.startLog(...args);
      },
    };
    const { live } = stream(60_000, slowHead);
    live.send(note(1));
    live.cut();
    const streamId = idOf((await wire(live))[0]!)!.split('.')[0]!;
    // The client resumes the moment the stream ends: the head is there.
    expect(await memory.readHead({ streamId, now: Date.now() })).toMatchObject({ next: 2 });
    live.finish(done);
    await live.drained();
  });

  it('stays open when its log cannot start, the response going out live; a client gone then cancels the call', async () => {
    const memory = memoryStreamLog();
    const broken = { ...memory, startLog: () => Promise.reject(new Error('throttled')) };
    const { live } = stream(60_000, broken);
    live.send(note(1));
    expect(live.cut()).toBe(true);
    // The call goes on and ends before the head write fails: what it sent meanwhile goes out live.
    live.send(note(2));
    live.finish(done);
    const chunks = await wire(live);
    expect(chunks.at(-1)).toContain('"result"');
    expect(chunks).toHaveLength(4);

    const gone = new AbortController();
    const other = stream(60_000, broken).live;
    const signal = other.cancelling(gone.signal);
    other.send(note(1));
    gone.abort(new Error('gone'));
    await sleep(10);
    expect(signal.aborted).toBe(true);
    other.end();
  });

  describe('of a request with a session and a call state', () => {
    /** A stream made as the transport makes it, its store counting the watch's reads. */
    function watched(logAfterMs: number) {
      const memory = memoryCallStateStores();
      const counted = { reads: 0 };
      const store = {
        ...memory.cancellations,
        cancelled: (...args: Parameters<typeof memory.cancellations.cancelled>) => (
          counted.reads++,
          memory.cancellations.cancelled(...args)
        ),
      };
      const session = { id: 'watched-session', protocolVersion: '2025-11-25', capabilities: {} };
      const live = resumableStream(
        { path: '/mcp', allowedOrigins: [], maxBodyBytes: 1_000_000, streamLogAfterMs: logAfterMs },
        { ...memory, cancellations: store, pollIntervalMs: 50 },
        {
          callId: 7,
          session,
          admitted: { accepts: { json: true, sse: true } },
          ctx: { requestId: 'r', log: silentLogger, deadline: Date.now() + 60_000 },
        },
      );
      const caller = callerOf(session.id, undefined);
      // Written straight into the store, as another instance writes it: nothing in this process wakes the watch.
      const cancelFrom = (who: string) =>
        store.cancel({ slot: slotOf(who, 7), caller: who, now: Date.now() });
      return { live, counted, cancelFrom, caller };
    }

    it("cancels a call whose stream was cut once its client's cancellation, sent to another instance, is recorded", async () => {
      const { live, cancelFrom, caller } = watched(0);
      const signal = live.cancelling(new AbortController().signal);
      live.send(note(1));
      live.cut();
      await wire(live);
      await cancelFrom(callerOf('another-session', undefined));
      await cancelFrom(caller);
      while (!signal.aborted) await sleep(20);
      expect(signal.reason).toBe(CLIENT_CANCELLED);
      live.finish(done);
      await live.drained();
    });

    it('reads nothing once the call has answered', async () => {
      const { live, counted } = watched(0);
      live.cancelling(new AbortController().signal);
      while (counted.reads === 0) await sleep(5);
      live.finish(done);
      await wire(live);
      await sleep(1_100);
      expect(counted.reads).toBe(1);
    });
  });
});
