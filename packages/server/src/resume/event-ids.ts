import { nodeCrypto } from '../crypto.ts';

/**
 * The ids of the events on a resumable stream (SEP-1699): `<stream>.<position>`. The stream part is 128 random bits
 * (base64url), so nobody finds a stream by guessing; the position counts the stream's events from 0, the priming
 * event. A client that lost the stream sends the last id it saw as `Last-Event-ID`, which names both.
 */

/** Longest `Last-Event-ID` read at all: ids we issue stay far below, and a hostile header is refused unread. */
export const MAX_EVENT_ID_CHARS = 64;
/** Highest position a stream reaches (its events are capped far below). */
const MAX_POSITION = 9_999_999;

const EVENT_ID = /^([A-Za-z0-9_-]{22})\.(0|[1-9][0-9]{0,6})$/;

/** A fresh unguessable stream id. */
export const newStreamId = (): string => nodeCrypto().randomBytes(16).toString('base64url');

/** The id of the event at `position` on stream `streamId`. */
export const eventId = (streamId: string, position: number): string => `${streamId}.${position}`;

/** The stream and position a `Last-Event-ID` names, or undefined when it cannot be an id this server issued. */
export function parseEventId(text: unknown): { streamId: string; position: number } | undefined {
  if (typeof text !== 'string' || text.length > MAX_EVENT_ID_CHARS) return undefined;
  const match = EVENT_ID.exec(text.trim());
  if (!match) return undefined;
  const position = Number(match[2]);
  return position <= MAX_POSITION ? { streamId: match[1]!, position } : undefined;
}
