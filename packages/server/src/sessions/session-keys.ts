import { nodeCrypto } from '../crypto.ts';
import { sessionKeyStrings } from './key-strings.ts';

/**
 * The keys sealing session ids. A secret holds one or more key strings (comma, space or newline separated),
 * newest first: the newest seals, every one opens. Rotation: put a new key in front, keep the old one for a
 * session lifetime, then remove it; ids sealed with a removed key answer 404 and their clients initialize again.
 */

/** One key: the AES-256 key and the id sealed ids carry to name it. */
export interface SessionKey {
  id: Buffer;
  secret: Buffer;
}

/** The keys of one secret value, newest first. */
export interface SessionKeyRing {
  current: SessionKey;
  byId: ReadonlyMap<string, SessionKey>;
}

/** Derives each key and its id (a digest: it names the key without revealing it). */
export function sessionKeyRing(keys: readonly string[]): SessionKeyRing {
  const derived = keys.map((material): SessionKey => {
    const hkdf = (info: string, bytes: number) =>
      Buffer.from(nodeCrypto().hkdfSync('sha256', material, Buffer.alloc(0), info, bytes));
    return { id: hkdf('mcp session key id v1', 4), secret: hkdf('mcp session id v1', 32) };
  });
  return {
    current: derived[0]!,
    byId: new Map(derived.map((key) => [key.id.toString('hex'), key])),
  };
}

/** Where the key strings come from: fixed values, or a secret store read with the request's signal. */
export type SessionKeySource = readonly string[] | ((signal: AbortSignal) => Promise<string>);

/** A ring older than this is read again before use, so a key removed from the secret stops working everywhere. */
const REFRESH_AFTER_MS = 5 * 60_000;
/** A source is read again at most this often (an unknown key id, a refresh that failed). */
const RELOAD_AFTER_MS = 60_000;

/**
 * The current ring of a source, loaded on first need; a failed first load is retried by the next request. The ring
 * is read again when it is five minutes old, so a key removed from the secret (rotated out, or revoked after a leak)
 * stops sealing and opening ids on warm instances too, and when an id names a key it does not know (a rotation
 * made elsewhere). The source is read at most once a minute and once at a time; a failed refresh keeps the ring.
 */
export function keyRingLoader(source: SessionKeySource, now: () => number = Date.now) {
  if (typeof source !== 'function') {
    const ring = Promise.resolve(sessionKeyRing(source));
    return { ring: () => ring, reload: () => ring };
  }
  let current: Promise<SessionKeyRing> | undefined;
  let loadedAt = 0;
  let triedAt = 0;
  let refreshing: Promise<SessionKeyRing> | undefined;
  const fresh = (signal: AbortSignal) => {
    triedAt = now();
    return source(signal).then((value) => {
      const ring = sessionKeyRing(sessionKeyStrings(value));
      loadedAt = now();
      return ring;
    });
  };
  const first = (signal: AbortSignal): Promise<SessionKeyRing> => {
    if (current) return current;
    const loading = fresh(signal);
    current = loading;
    loading.catch(() => {
      if (current === loading) current = undefined;
    });
    return loading;
  };
  const refresh = (signal: AbortSignal): Promise<SessionKeyRing> => {
    if (!current) return first(signal);
    if (refreshing) return refreshing;
    if (now() - triedAt < RELOAD_AFTER_MS) return current;
    const kept = current;
    refreshing = fresh(signal)
      .then(
        (ring) => (current = Promise.resolve(ring)),
        () => kept,
      )
      .finally(() => (refreshing = undefined));
    return refreshing;
  };
  return {
    ring: (signal: AbortSignal) =>
      current && now() - loadedAt >= REFRESH_AFTER_MS ? refresh(signal) : first(signal),
    reload: refresh,
  };
}
