import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { LoggedEvent, StreamHead, StreamLog } from '@mcp-lambda/server/backend';
import { checks, type ContractCheck, type MakeStore } from './check.ts';

const event = (position: number, data: string, last = false): LoggedEvent => ({
  position,
  data,
  ...(last ? { last } : {}),
});
const streamId = () => randomBytes(16).toString('base64url');
const head = (overrides: Partial<StreamHead> = {}): StreamHead => {
  const until = Date.now() + 60_000;
  return {
    streamId: streamId(),
    caller: 'caller-a',
    callId: 'call-7',
    ends: until - 1,
    until,
    sent: [],
    next: 1,
    ...overrides,
  };
};

/**
 * The `StreamLog` contract (`@mcp-lambda/server/backend`), the call state's store of resumable streams: a head and
 * the events after it read back as written, each stream apart, nothing served once the head's `until` has passed.
 */
export function streamLogChecks(make: MakeStore<StreamLog>): ContractCheck[] {
  return checks(make, {
    'reads back the head and each event appended after it; nothing else': async (log) => {
      const sent = [event(1, '{"a":1}'), event(2, '{"b":"é"}')];
      const written = head({ sent, next: 3 });
      await log.startLog(written);
      await log.appendEvent({ streamId: written.streamId, event: event(3, '{"c":3}'), until: written.until });
      await log.appendEvent({
        streamId: written.streamId,
        event: event(4, '{"id":1,"result":{}}', true),
        until: written.until,
      });
      assert.deepStrictEqual(await log.readHead({ streamId: written.streamId, now: Date.now() }), written);
      assert.deepStrictEqual(
        await log.readEvent({ streamId: written.streamId, position: 3 }),
        event(3, '{"c":3}'),
      );
      assert.deepStrictEqual(
        await log.readEvent({ streamId: written.streamId, position: 4 }),
        event(4, '{"id":1,"result":{}}', true),
      );
      assert.equal(await log.readEvent({ streamId: written.streamId, position: 5 }), undefined);
      assert.equal(await log.readHead({ streamId: streamId(), now: Date.now() }), undefined);
    },
    'keeps a numeric call id a number, and any text of an event byte for byte': async (log) => {
      const text = '{"t":"€ \\u0000 \\"quoted\\" 𝄞"}';
      const written = head({ callId: 42, sent: [event(1, text)], next: 2 });
      await log.startLog(written);
      await log.appendEvent({ streamId: written.streamId, event: event(2, text), until: written.until });
      assert.deepStrictEqual(await log.readHead({ streamId: written.streamId, now: Date.now() }), written);
      assert.equal((await log.readEvent({ streamId: written.streamId, position: 2 }))?.data, text);
    },
    'keeps each stream apart: the same positions of two streams are two events': async (log) => {
      const [a, b] = [head(), head()];
      await Promise.all([log.startLog(a), log.startLog(b)]);
      await log.appendEvent({ streamId: a.streamId, event: event(1, '"a"'), until: a.until });
      await log.appendEvent({ streamId: b.streamId, event: event(1, '"b"'), until: b.until });
      assert.equal((await log.readEvent({ streamId: a.streamId, position: 1 }))?.data, '"a"');
      assert.equal((await log.readEvent({ streamId: b.streamId, position: 1 }))?.data, '"b"');
    },
    'serves no head once the log expired': async (log) => {
      const until = Date.now() + 1_000;
      const written = head({ ends: until, until });
      await log.startLog(written);
      assert.notEqual(await log.readHead({ streamId: written.streamId, now: until - 1 }), undefined);
      assert.equal(await log.readHead({ streamId: written.streamId, now: until }), undefined);
    },
  });
}
