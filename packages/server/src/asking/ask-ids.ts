import { nodeCrypto } from '../crypto.ts';

/**
 * The ids of mid-call questions. The JSON-RPC id of a question is `<slot>.<askId>`: the slot names the call
 * (call-state/ids.ts, so a cancellation of the call finds it), the askId is 128 random bits (so nobody can answer a
 * question they were not sent). Both are base64url, so the id is plain visible ASCII.
 */

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
