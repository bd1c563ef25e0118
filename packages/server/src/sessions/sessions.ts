import { Defaults } from '../limits.ts';
import { openSession, sealSession, sessionKeyId, type Session, type SessionClaims } from './session-id.ts';
import { keyRingLoader, SESSION_KEY_LABELS, type SessionKeySource } from './session-keys.ts';

/** How a server issues handshake-era sessions (`Mcp-Session-Id`). */
export interface SessionOptions {
  /**
   * The keys sealing session ids, newest first: fixed strings of at least 32 characters, or a function reading a
   * secret store (its value holds the keys separated by commas or whitespace). Every instance that may serve a
   * session's requests needs the same keys. The server derives the `requestState` keys from them too.
   */
  keys: SessionKeySource;
  /** How long a session lives, in ms; a later request with its id answers 404 and the client initializes again. */
  ttlMs?: number;
}

/** Issues and opens session ids; both may read the key source (bounded by the signal) and throw when it fails. */
export interface Sessions {
  issue(claims: SessionClaims, principal: string | undefined, signal: AbortSignal): Promise<string>;
  /** The session an id names, or undefined when it is not a live session of this caller. */
  open(id: string, principal: string | undefined, signal: AbortSignal): Promise<Session | undefined>;
}

/** Creates the sessions of one server. */
export function createSessions(options: SessionOptions, now: () => number = Date.now): Sessions {
  const ttlMs = options.ttlMs ?? Defaults.sessionTtlMs;
  const keys = keyRingLoader(options.keys, SESSION_KEY_LABELS, now);
  return {
    async issue(claims, principal, signal) {
      return sealSession(await keys.ring(signal), claims, now() + ttlMs, principal);
    },
    async open(id, principal, signal) {
      const kid = sessionKeyId(id)?.toString('hex');
      if (kid === undefined) return undefined;
      const key = (await keys.ring(signal)).byId.get(kid) ?? (await keys.reload(signal)).byId.get(kid);
      return openSession(key, id, now(), principal);
    },
  };
}
