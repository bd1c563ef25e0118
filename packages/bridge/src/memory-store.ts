import type { BridgeStore, CodeGrant, RefreshFamily } from './store.ts';

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
  const sweep = () => {
    const now = nowSeconds();
    for (const map of [codes, families, signOuts] as Map<string, { retainUntil: number }>[])
      for (const [key, record] of map) if (record.retainUntil <= now) map.delete(key);
  };
  const liveCode = (codeHash: string) => {
    const record = codes.get(codeHash);
    return record && record.retainUntil > nowSeconds() ? record : undefined;
  };

  return {
    size: () => codes.size + families.size + signOuts.size,
    async saveCode(codeHash, grant, retainUntil) {
      sweep();
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
      sweep();
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
    async commitRotation(r) {
      const record = families.get(r.familyId);
      const family = record?.family;
      if (!record || record.revoked || !family) return false;
      if (family.tokenHash !== r.presentedHash || family.clientHash !== r.clientHash) return false;
      if (family.expiresAt <= r.nowSeconds) return false;
      Object.assign(family, {
        tokenHash: r.nextHash,
        previousHash: r.presentedHash,
        rotatedAt: r.nowSeconds,
        ...(r.upstream !== undefined ? { upstream: r.upstream } : {}),
      });
      return true;
    },
    async revokeFamily(familyId, retainUntil) {
      const record = families.get(familyId);
      if (record) {
        record.revoked = true;
        delete record.family?.upstream;
      } else families.set(familyId, { revoked: true, retainUntil });
    },
    async signOut(subject, atSeconds, retainUntil) {
      sweep();
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
