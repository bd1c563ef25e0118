import { nodeCrypto } from '../crypto.ts';
import { sessionKeyStrings } from './key-strings.ts';

/**
 * The keys sealing session ids and `requestState`. A secret holds one or more key strings (comma, space or newline
 * separated), newest first: the newest seals, every one opens. Rotation: put a new key in front, keep the old one for
 * a session lifetime, then remove it; ids sealed with a removed key answer 404 and their clients initialize again.
 * Each use derives its own keys from the strings (HKDF with its own labels), so no two uses ever share a key.
 */

/** One key: the AES-256 key and the id sealed tokens carry to name it. */
export interface SealingKey {
  id: Buffer;
  secret: Buffer;
}

/** The keys of one secret value, newest first. */
export interface KeyRing {
  current: SealingKey;
  byId: ReadonlyMap<string, SealingKey>;
}

/** The HKDF info labels of one use of the key strings: its AES keys and their ids. */
export interface KeyLabels {
  key: string;
  id: string;
}

/** Session ids (`Mcp-Session-Id`). */
export const SESSION_KEY_LABELS: KeyLabels = { key: 'mcp session id v1', id: 'mcp session key id v1' };

/** Derives each key and its id (a digest: it names the key without revealing it). */
export function keyRing(materials: readonly (string | Uint8Array)[], labels: KeyLabels): KeyRing {
  const derived = materials.map((material): SealingKey => {
    const hkdf = (info: string, bytes: number) =>
      Buffer.from(nodeCrypto().hkdfSync('sha256', material, Buffer.alloc(0), info, bytes));
    return { id: hkdf(labels.id, 4), secret: hkdf(labels.key, 32) };
  });
  return {
    current: derived[0]!,
    byId: new Map(derived.map((key) => [key.id.toString('hex'), key])),
  };
}

/** Where the key strings come from: fixed values, or a secret store read with the request's signal. */
export type SessionKeySource = readonly string[] | ((signal: AbortSignal) => Promise<string>);

/** A source whose fixed values may also be raw bytes (an explicit `requestStateSecret`). */
export type KeyMaterialSource = readonly (string | Uint8Array)[] | ((signal: AbortSignal) => Promise<string>);

/** A source that reads again at most this often when a token names a key it does not know (a rotation elsewhere). */
const RELOAD_AFTER_MS = 60_000;

/** The ring of a source, as a loader keeps it. */
export interface KeyRingLoader {
  /** The ring, loaded on first need and kept; a failed load is retried by the next call. */
  ring(signal: AbortSignal): Promise<KeyRing>;
  /** A fresh ring, read at most once a minute (else the kept one); keeps the ring it has if the read fails. */
  reload(signal: AbortSignal): Promise<KeyRing>;
  /** The ring already loaded, if any: what a caller can use without a signal (no read can happen). */
  loaded(): KeyRing | undefined;
}

/**
 * The current ring of a source, loaded on first need and kept; a failed load is retried by the next request. A token
 * naming an unknown key reloads the source (at most once a minute, keeping the ring it has if that fails), so
 * instances pick up a rotation made elsewhere.
 */
export function keyRingLoader(
  source: KeyMaterialSource,
  labels: KeyLabels,
  now: () => number = Date.now,
): KeyRingLoader {
  if (typeof source !== 'function') {
    let fixed: KeyRing | undefined;
    const ring = async () => (fixed ??= keyRing(source, labels));
    return { ring, reload: ring, loaded: () => fixed };
  }
  let current: Promise<KeyRing> | undefined;
  let settled: KeyRing | undefined;
  let loadedAt = 0;
  const fresh = (signal: AbortSignal) => {
    loadedAt = now();
    return source(signal).then((value) => (settled = keyRing(sessionKeyStrings(value), labels)));
  };
  const ring = (signal: AbortSignal): Promise<KeyRing> => {
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
    async reload(signal: AbortSignal): Promise<KeyRing> {
      if (!current || now() - loadedAt < RELOAD_AFTER_MS) return ring(signal);
      try {
        const loaded = await fresh(signal);
        current = Promise.resolve(loaded);
        return loaded;
      } catch {
        return ring(signal);
      }
    },
    loaded: () => settled,
  };
}
