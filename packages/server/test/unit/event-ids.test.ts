import { describe, expect, it } from 'vitest';
import { eventId, MAX_EVENT_ID_CHARS, newStreamId, parseEventId } from '../../src/resume/event-ids.ts';

// The ids of the events of resumable streams (SEP-1699): `<stream>.<position>`, the stream part 128 random bits.

describe('event ids', () => {
  it('names a stream with 128 random bits (22 base64url characters), a fresh one each time', () => {
    const ids = new Set(Array.from({ length: 1_000 }, newStreamId));
    expect(ids.size).toBe(1_000);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    }
  });

  it('names the stream and the position, and reads back what it wrote', () => {
    const stream = newStreamId();
    expect(eventId(stream, 0)).toBe(`${stream}.0`);
    expect(parseEventId(eventId(stream, 42))).toEqual({ streamId: stream, position: 42 });
    expect(parseEventId(` ${eventId(stream, 7)} `)).toEqual({ streamId: stream, position: 7 });
  });

  const stream = 'A'.repeat(22);
  it.each([
    ['not a string', 42],
    ['empty', ''],
    ['no position', stream],
    ['no stream', '.3'],
    ['a stream part too short', `${'A'.repeat(21)}.1`],
    ['a stream part too long', `${'A'.repeat(23)}.1`],
    ['a character outside base64url', `${'A'.repeat(21)}+.1`],
    ['a position with a leading zero', `${stream}.01`],
    ['a negative position', `${stream}.-1`],
    ['a position with a fraction', `${stream}.1.5`],
    ['a position in exponent form', `${stream}.1e3`],
    ['a position past the cap', `${stream}.99999999`],
    ['a line break inside', `${stream}.1\nid: x`],
    ['a header far too long', `${stream}.${'1'.repeat(10_000)}`],
    ['one character over the length cap', `${stream}.1${' '.repeat(MAX_EVENT_ID_CHARS)}`],
  ])('refuses %s', (_name, text) => {
    expect(parseEventId(text)).toBeUndefined();
  });
});
