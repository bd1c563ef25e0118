import { BridgeLimits } from './limits.ts';
import type { FamilyRecord, RefreshFamily } from './store.ts';

/**
 * What a presented refresh token means (pure; OAuth 2.1 §4.3.1 and §6.1): the family's current token rotates; the
 * token it replaced, back within the grace window while its successor is still current, is a retry of the same
 * refresh and gets that successor again; any other token of the family, or a token presented by another client,
 * is reuse and ends the family. A token the bridge never issued ends nothing: it only names a family.
 */
export type RefreshVerdict =
  | { kind: 'rotate'; family: RefreshFamily }
  | { kind: 'retry'; family: RefreshFamily }
  | { kind: 'refuse'; reason: 'unknown' | 'revoked' | 'expired' | 'signed out' }
  | { kind: 'reuse'; family: RefreshFamily };

export interface PresentedRefresh {
  presentedHash: string;
  /** Hash of the successor the presented token would have (successors are derived, see `refresh.ts`). */
  successorHash: string;
  clientHash: string;
  /** Whether the bridge made the presented token (`refresh-token.ts`), perhaps long ago. */
  issued: boolean;
  nowSeconds: number;
  /** When the user was last signed out everywhere, if ever. */
  signedOutAt: number | undefined;
}

export function judgeRefresh(
  record: FamilyRecord,
  p: PresentedRefresh,
  graceSeconds: number = BridgeLimits.refreshGraceSeconds,
): RefreshVerdict {
  if (record.kind !== 'family') return { kind: 'refuse', reason: record.kind };
  const { family } = record;
  if (family.expiresAt <= p.nowSeconds) return { kind: 'refuse', reason: 'expired' };
  if (p.signedOutAt !== undefined && family.issuedAt <= p.signedOutAt)
    return { kind: 'refuse', reason: 'signed out' };
  const known = family.tokenHash === p.presentedHash || family.previousHash === p.presentedHash;
  // Made up from a family id (an access token's `sid` names it): proof of nothing, so the family is left alone.
  if (!known && !p.issued) return { kind: 'refuse', reason: 'unknown' };
  if (family.clientHash !== p.clientHash) return { kind: 'reuse', family };
  if (family.tokenHash === p.presentedHash) return { kind: 'rotate', family };
  const retry =
    family.previousHash === p.presentedHash &&
    family.tokenHash === p.successorHash &&
    family.rotatedAt !== undefined &&
    p.nowSeconds - family.rotatedAt <= graceSeconds;
  return retry ? { kind: 'retry', family } : { kind: 'reuse', family };
}
