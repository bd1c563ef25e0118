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

/** A source that reads again at most this often when an id names a key it does not know (a rotation elsewhere). */
const RELOAD_AFTER_MS = 60_000;

/**
 * The current ring of a source, loaded on first need and kept; a failed load is retried by the next request. An id
 * naming an unknown key reloads the source (at most once a minute, keeping the ring it has if that fails), so
 * instances pick up a rotation made elsewhere.
 */
export function keyRingLoader(source: SessionKeySource, now: () => number = Date.now) {
  if (typeof source !== 'function') {
    const ring = Promise.resolve(sessionKeyRing(source));
    return { ring: () => ring, reload: () => ring };
  }
  let current: Promise<SessionKeyRing> | undefined;
  let loadedAt = 0;
  const fresh = (signal: AbortSignal) => {
    loadedAt = now();
    return source(signal).then((value) => sessionKeyRing(sessionKeyStrings(value)));
  };
  const ring = (signal: AbortSignal): Promise<SessionKeyRing> => {
    if (current) return current;
    const loading = fresh(signal);
    current = loading;
    loading.catch(() => {
      if (current === loading) current = undefined;
    });
    return loading;
  };
  return {
    ring,
    async reload(signal: AbortSignal): Promise<SessionKeyRing> {
      if (!current || now() - loadedAt < RELOAD_AFTER_MS) return ring(signal);
      try {
        const loaded = await fresh(signal);
        current = Promise.resolve(loaded);
        return loaded;
      } catch {
        return ring(signal);
      }
    },
  };
}
