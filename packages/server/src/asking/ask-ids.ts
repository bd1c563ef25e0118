import { nodeCrypto } from '../crypto.ts';
import type { RequestId } from '../protocol/types.ts';

/**
 * The ids of mid-call questions. The JSON-RPC id of a question is `<slot>.<askId>`: the slot names the call (a
 * digest of the caller and the call's id, so a cancellation of the call finds it), the askId is 128 random bits
 * (so nobody can answer a question they were not sent). Both are base64url, so the id is plain visible ASCII.
 */

const sha256 = (text: string) => nodeCrypto().createHash('sha256').update(text).digest('base64url');

/** Who a question is asked of: the session, and the authenticated caller when authorization is on. */
export const callerOf = (sessionId: string, principal: string | undefined): string =>
  sha256(`${principal ?? ''}\u0000${sessionId}`);

/** The slot of a call: the same for the same caller and JSON-RPC id (a string id and a number id differ). */
export const slotOf = (caller: string, callId: RequestId): string =>
  sha256(`${caller}\u0000${typeof callId}:${callId}`).slice(0, 22);

/** A fresh unguessable question id. */
export const newAskId = (): string => nodeCrypto().randomBytes(16).toString('base64url');

/** The JSON-RPC id a question is sent with. */
export const wireId = (slot: string, askId: string): string => `${slot}.${askId}`;

const WIRE_ID = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;

/** The slot and askId of an answer's id, or undefined when it cannot be one of our questions. */
export function parseWireId(id: unknown): { slot: string; askId: string } | undefined {
  const match = typeof id === 'string' ? WIRE_ID.exec(id) : null;
  return match ? { slot: match[1]!, askId: match[2]! } : undefined;
}
