import { describe, expect, it, vi } from 'vitest';
import { memoryStreamLog } from '../../src/call-state/memory-stream-log.ts';
import type { StreamHead } from '../../src/call-state/stores.ts';
import { newStreamId } from '../../src/resume/event-ids.ts';

// The event log of `npm start` (one process): what it keeps, and what removing expired logs costs.

const head = (until: number): StreamHead => ({
  streamId: newStreamId(),
  caller: 'caller',
  callId: 1,
  ends: until,
  until,
  sent: [],
  next: 1,
});

describe('the in-memory event log', () => {
  it('serves a head and its events until the log expires, then nothing', async () => {
    const log = memoryStreamLog();
    const live = head(Date.now() + 60_000);
    await log.startLog(live);
    await log.appendEvent({ streamId: live.streamId, event: { position: 1, data: 'a' }, until: live.until });
    expect(await log.readHead({ streamId: live.streamId, now: Date.now() })).toMatchObject({ next: 1 });
    expect(await log.readEvent({ streamId: live.streamId, position: 1 })).toEqual({ position: 1, data: 'a' });
    expect(await log.readHead({ streamId: live.streamId, now: live.until })).toBeUndefined();
    expect(await log.readEvent({ streamId: live.streamId, position: 2 })).toBeUndefined();
  });

  it("removes expired logs without scanning every other log's events for each (a flood of logs stays cheap)", async () => {
    const log = memoryStreamLog();
    const until = Date.now() + 60_000;
    const ids: string[] = [];
    for (let n = 0; n < 2_000; n++) {
      const expiring = head(until);
      ids.push(expiring.streamId);
      await log.startLog(expiring);
      for (let position = 1; position <= 200; position++)
        await log.appendEvent({ streamId: expiring.streamId, event: { position, data: '' }, until });
    }
    // Later, when every one of them has expired at once:
    vi.spyOn(Date, 'now').mockReturnValue(until + 1);
    const started = performance.now();
    await log.startLog(head(until + 60_000));
    const ms = performance.now() - started;
    vi.restoreAllMocks();
    expect(ms).toBeLessThan(1_000);
    expect(await log.readEvent({ streamId: ids[0]!, position: 1 })).toBeUndefined();
  });
});
