import type { BridgeStore, CodeGrant, RefreshFamily, RotationCommit } from './store.ts';

interface CodeEntry {
  grant: CodeGrant;
  retainUntil: number;
  usedBy?: string;
}
interface FamilyEntry {
  family?: RefreshFamily;
  revoked: boolean;
  retainUntil: number;
}
interface SignOutEntry {
  at: number;
  retainUntil: number;
}

/** The conditional rotation of `BridgeStore.commitRotation`, on one family entry. */
function applyRotation(entry: FamilyEntry | undefined, r: RotationCommit): boolean {
  const family = entry?.family;
  if (!entry || entry.revoked || !family) return false;
  if (family.tokenHash !== r.presentedHash || family.clientHash !== r.clientHash) return false;
  if (family.expiresAt <= r.nowSeconds) return false;
  Object.assign(family, {
    tokenHash: r.nextHash,
    previousHash: r.presentedHash,
    rotatedAt: r.nowSeconds,
    ...(r.upstream !== undefined ? { upstream: r.upstream } : {}),
  });
  return true;
}

/** Drops every entry whose retention ended. */
function sweep(now: number, ...maps: Map<string, { retainUntil: number }>[]): void {
  for (const map of maps) for (const [key, record] of map) if (record.retainUntil <= now) map.delete(key);
}

/**
 * The bridge store in process memory, for `npm start` and tests: the same semantics as the DynamoDB store
 * (atomic single use, conditional rotation, revocation tombstones, sign-outs, expiry), lost when the process stops.
 */
export function createMemoryStore(
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
): BridgeStore & {
  /** Records currently held (tests). */
  size(): number;
} {
  const codes = new Map<string, CodeEntry>();
  const families = new Map<string, FamilyEntry>();
  const signOuts = new Map<string, SignOutEntry>();
  const tidy = () => sweep(nowSeconds(), codes, families, signOuts);
  const liveCode = (codeHash: string) => {
    const record = codes.get(codeHash);
    return record && record.retainUntil > nowSeconds() ? record : undefined;
  };

  return {
    size: () => codes.size + families.size + signOuts.size,
    async saveCode(codeHash, grant, retainUntil) {
      tidy();
      if (codes.has(codeHash)) throw new Error('Authorization code collision');
      codes.set(codeHash, { grant: { ...grant }, retainUntil });
    },
    async readCode(codeHash) {
      const record = liveCode(codeHash);
      return record && { grant: { ...record.grant }, usedBy: record.usedBy };
    },
    async redeemCode(codeHash, familyId) {
      const record = liveCode(codeHash);
      if (!record) return { kind: 'unknown' };
      if (record.usedBy !== undefined) return { kind: 'replayed', familyId: record.usedBy };
      record.usedBy = familyId;
      const grant = { ...record.grant };
      // The provider's token now lives in the family; the used code keeps no copy.
      delete record.grant.upstream;
      return { kind: 'redeemed', grant };
    },
    async createFamily(family) {
      tidy();
      if (families.has(family.id)) return false;
      families.set(family.id, { family: { ...family }, revoked: false, retainUntil: family.expiresAt });
      return true;
    },
    async readFamily(familyId) {
      const record = families.get(familyId);
      if (!record) return { kind: 'unknown' };
      if (record.revoked || !record.family) return { kind: 'revoked' };
      return { kind: 'family', family: { ...record.family } };
    },
    commitRotation: async (r) => applyRotation(families.get(r.familyId), r),
    async revokeFamily(familyId, retainUntil) {
      const record = families.get(familyId);
      if (record) {
        record.revoked = true;
        delete record.family?.upstream;
      } else families.set(familyId, { revoked: true, retainUntil });
    },
    async signOut(subject, atSeconds, retainUntil) {
      tidy();
      const before = signOuts.get(subject);
      signOuts.set(subject, {
        at: Math.max(atSeconds, before?.at ?? 0),
        retainUntil: Math.max(retainUntil, before?.retainUntil ?? 0),
      });
    },
    async signedOutAt(subject) {
      const record = signOuts.get(subject);
      return record && record.retainUntil > nowSeconds() ? record.at : undefined;
    },
  };
}
