import type { BridgeStore, CodeGrant, RefreshFamily } from './store.ts';

interface CodeRecord {
  grant: CodeGrant;
  retainUntil: number;
  usedBy?: string;
}
interface FamilyRecord {
  family?: RefreshFamily;
  revoked: boolean;
  retainUntil: number;
}

/**
 * The bridge store in process memory, for `npm start` and tests: the same semantics as the DynamoDB store
 * (atomic single use, rotation, reuse detection, expiry), lost when the process stops.
 */
export function createMemoryStore(
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
): BridgeStore & {
  /** Records currently held (tests). */
  size(): number;
} {
  const codes = new Map<string, CodeRecord>();
  const families = new Map<string, FamilyRecord>();
  const sweep = () => {
    const now = nowSeconds();
    for (const [key, record] of codes) if (record.retainUntil <= now) codes.delete(key);
    for (const [key, record] of families) if (record.retainUntil <= now) families.delete(key);
  };

  return {
    size: () => codes.size + families.size,
    async saveCode(codeHash, grant, retainUntil) {
      sweep();
      if (codes.has(codeHash)) throw new Error('Authorization code collision');
      codes.set(codeHash, { grant: { ...grant }, retainUntil });
    },
    async redeemCode(codeHash, familyId) {
      const record = codes.get(codeHash);
      if (!record || record.retainUntil <= nowSeconds()) return { kind: 'unknown' };
      if (record.usedBy !== undefined) return { kind: 'replayed', familyId: record.usedBy };
      record.usedBy = familyId;
      return { kind: 'redeemed', grant: { ...record.grant } };
    },
    async createFamily(family) {
      sweep();
      if (families.has(family.id)) return false;
      families.set(family.id, { family: { ...family }, revoked: false, retainUntil: family.expiresAt });
      return true;
    },
    async rotateRefresh(familyId, presentedHash, nextHash, clientHash, now) {
      const record = families.get(familyId);
      if (!record) return { kind: 'unknown' };
      if (record.revoked || !record.family) return { kind: 'revoked' };
      const { family } = record;
      if (family.expiresAt <= now) return { kind: 'expired' };
      if (family.tokenHash !== presentedHash || family.clientHash !== clientHash) {
        record.revoked = true;
        return { kind: 'reused' };
      }
      family.tokenHash = nextHash;
      return { kind: 'rotated', family: { ...family } };
    },
    async revokeFamily(familyId, retainUntil) {
      const record = families.get(familyId);
      if (record) record.revoked = true;
      else families.set(familyId, { revoked: true, retainUntil });
    },
  };
}
