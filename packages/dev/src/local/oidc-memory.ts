/**
 * The embedded OpenID provider's storage: its sessions, interactions, grants and codes in this process's memory, a
 * restart forgetting them (the local provider is for one developer; the bridge in front of it keeps its own state
 * likewise). Given to `oidc-provider` as its adapter, so it does not fall back to its own quick-start one and warn
 * about it on every start: `npm start` says what this means once, in its own words.
 */
import type { AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  /** Epoch ms. */
  expiresAt: number;
}

/** Most entries kept: the oldest go first past it (a local provider sees a handful of sign-ins). */
const MAX_ENTRIES = 10_000;

/** One store shared by every model of a provider (`oidc-provider` asks for one adapter per model name). */
export function memoryAdapter(now: () => number = Date.now): AdapterFactory {
  const entries = new Map<string, Entry>();
  /** Secondary indexes: `model:uid` and `model:userCode` to the entry's key, a grant id to the keys it issued. */
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (!entry || entry.expiresAt > now()) return entry;
    entries.delete(key);
    return undefined;
  };
  let sweptAt = now();
  /**
   * Drops expired entries (and the oldest past the cap), then the index lines that point at nothing: once a
   * minute, or at once past the cap.
   */
  const sweep = () => {
    if (entries.size < MAX_ENTRIES && now() - sweptAt < 60_000) return;
    sweptAt = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now()) entries.delete(key);
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    for (const index of [byUid, byUserCode])
      for (const [name, key] of index) if (!entries.has(key)) index.delete(name);
    for (const [grantId, issued] of byGrant) {
      for (const key of issued) if (!entries.has(key)) issued.delete(key);
      if (issued.size === 0) byGrant.delete(grantId);
    }
  };

  return (model: string) => {
    const key = (id: string) => `${model}:${id}`;
    const find = async (id: string) => live(key(id))?.payload;
    const findIndexed = async (index: Map<string, string>, name: string) => {
      const entryKey = index.get(key(name));
      return entryKey === undefined ? undefined : live(entryKey)?.payload;
    };
    return {
      async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
        sweep();
        const expiresAt = expiresIn === undefined ? Number.POSITIVE_INFINITY : now() + expiresIn * 1000;
        entries.set(key(id), { payload: structuredClone(payload), expiresAt });
        if (payload.uid) byUid.set(key(payload.uid), key(id));
        if (payload.userCode) byUserCode.set(key(payload.userCode), key(id));
        if (payload.grantId) {
          const issued = byGrant.get(payload.grantId) ?? new Set<string>();
          byGrant.set(payload.grantId, issued.add(key(id)));
        }
      },
      find,
      findByUid: (uid: string) => findIndexed(byUid, uid),
      findByUserCode: (userCode: string) => findIndexed(byUserCode, userCode),
      async consume(id: string) {
        const entry = live(key(id));
        if (entry) entry.payload.consumed = Math.floor(now() / 1000);
      },
      async destroy(id: string) {
        entries.delete(key(id));
      },
      async revokeByGrantId(grantId: string) {
        for (const issued of byGrant.get(grantId) ?? []) entries.delete(issued);
        byGrant.delete(grantId);
      },
    };
  };
}
