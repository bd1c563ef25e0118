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
function keyRing(materials: readonly (string | Uint8Array)[], labels: KeyLabels): KeyRing {
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

/** A ring older than this is read again before use, so a key removed from the secret stops working everywhere. */
const REFRESH_AFTER_MS = 5 * 60_000;
/** A source is read again at most this often (an unknown key id, a refresh that failed). */
const RELOAD_AFTER_MS = 60_000;

/** The ring of a source, as a loader keeps it. */
export interface KeyRingLoader {
  /** The ring, loaded on first need, read again when five minutes old; a failed load is retried by the next call. */
  ring(signal: AbortSignal): Promise<KeyRing>;
  /** A fresh ring, read at most once a minute (else the kept one); keeps the ring it has if the read fails. */
  reload(signal: AbortSignal): Promise<KeyRing>;
  /** The ring already loaded, if any: what a caller can use without a signal (no read can happen). */
  loaded(): KeyRing | undefined;
}

/**
 * The current ring of a source, loaded on first need; a failed first load is retried by the next request. The ring
 * is read again when it is five minutes old, so a key removed from the secret (rotated out, or revoked after a leak)
 * stops sealing and opening on warm instances too, and when a token names a key it does not know (a rotation made
 * elsewhere). The source is read at most once a minute and once at a time; a failed refresh keeps the ring.
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
  let triedAt = 0;
  let refreshing: Promise<KeyRing> | undefined;
  const fresh = (signal: AbortSignal) => {
    triedAt = now();
    return source(signal).then((value) => {
      settled = keyRing(sessionKeyStrings(value), labels);
      loadedAt = now();
      return settled;
    });
  };
  const first = (signal: AbortSignal): Promise<KeyRing> => {
    if (current) return current;
    const loading = fresh(signal);
    current = loading;
    loading.catch(() => {
      if (current === loading) current = undefined;
    });
    return loading;
  };
  const refresh = (signal: AbortSignal): Promise<KeyRing> => {
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
    // A ring due for its five-minute re-read is not at hand: the caller reads it (and a removed key stops working).
    loaded: () => (settled && now() - loadedAt < REFRESH_AFTER_MS ? settled : undefined),
  };
}
