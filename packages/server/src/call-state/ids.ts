import { nodeCrypto } from '../crypto.ts';
import type { RequestId } from '../protocol/types.ts';

/**
 * The keys of a call's state: who it is of (a digest of the session and the authenticated caller) and its slot (a
 * digest of the caller and the call's JSON-RPC id), which its question, its cancellation and its stream log are
 * bound to. Both are base64url.
 */

const sha256 = (text: string) => nodeCrypto().createHash('sha256').update(text).digest('base64url');

/** Who a call is of: the session, and the authenticated caller when authorization is on. */
export const callerOf = (sessionId: string, principal: string | undefined): string =>
  sha256(`${principal ?? ''}\u0000${sessionId}`);

/** The slot of a call: the same for the same caller and JSON-RPC id (a string id and a number id differ). */
export const slotOf = (caller: string, callId: RequestId): string =>
  sha256(`${caller}\u0000${typeof callId}:${callId}`).slice(0, 22);
