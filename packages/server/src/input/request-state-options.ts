import type { KeyMaterialSource, SessionKeySource } from '../sessions/session-keys.ts';

/** How a server seals `requestState` (request-state.ts); read at start-up, before the codec's code loads. */
export interface RequestStateOptions {
  /** How long a sealed state stays valid, in ms: the time a user has to answer. */
  ttlMs: number;
  /** Explicit key material, at least 16 bytes (`requestStateSecret`, MCP_REQUEST_STATE_SECRET): wins over the rest. */
  secret?: string | Uint8Array;
  /** The session keys: each gives a request-state key of its own, and they rotate as session keys do. */
  sessionKeys?: SessionKeySource;
}

/** Fewest bytes of an explicit secret. */
const MIN_SECRET_BYTES = 16;

/**
 * Where the keys come from: the explicit secret, else the session keys; undefined when neither is set (a key random
 * to the process). Throws for a secret too short, so a bad one fails when the server is built, not at its first use.
 */
export function requestStateKeySource(options: RequestStateOptions): KeyMaterialSource | undefined {
  const { secret } = options;
  if (secret === undefined) return options.sessionKeys;
  const bytes = typeof secret === 'string' ? Buffer.byteLength(secret) : secret.length;
  if (bytes < MIN_SECRET_BYTES)
    throw new Error(`requestState secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return [secret];
}
