/**
 * What the bridge must remember beyond one request: single-use authorization codes, refresh-token families and
 * the subjects an operator signed out. Only SHA-256 hashes of codes and refresh tokens are stored, so a copy of
 * the store cannot be replayed; the one upstream secret a family keeps (the sign-in provider's refresh token) is
 * sealed with the bridge's key. Every record carries an expiry (epoch seconds) that the store also uses to delete it.
 */

/** What an authorization code was issued for (OAuth 2.1 §4.1.3: bound to client, redirect URI and PKCE). */
export interface CodeGrant {
  /** SHA-256 (base64url) of the client_id it was issued to. */
  clientHash: string;
  /** The redirect_uri of the authorization request, exactly as sent (the token request must repeat it). */
  redirectUri: string;
  /** PKCE S256 challenge. */
  codeChallenge: string;
  /** Granted scopes, space-separated. */
  scope: string;
  /** Whether the client may have a refresh token (it registered the refresh_token grant). */
  refresh: boolean;
  /** The user, as the upstream identity provider names them (`sub`). */
  subject: string;
  /** The MCP resource the tokens will be for. */
  resource: string;
  /** Epoch seconds after which the code is refused. */
  expiresAt: number;
  /** The sign-in provider's refresh token, sealed (absent when the provider issued none). */
  upstream?: string;
}

/** The outcome of redeeming a code: it is marked used in the same atomic step. */
export type CodeRedemption =
  | { kind: 'redeemed'; grant: CodeGrant }
  | { kind: 'unknown' }
  /** Used before: the refresh family issued from it (if any) is named so it can be revoked. */
  | { kind: 'replayed'; familyId: string | undefined };

/** A code as read before it is redeemed: its grant, and the family it was redeemed for if it was used already. */
type CodeRecord = { grant: CodeGrant; usedBy: string | undefined } | undefined;

/** A refresh-token family: every token rotated from one authorization shares it (OAuth 2.1 §4.3.1). */
export interface RefreshFamily {
  id: string;
  clientHash: string;
  subject: string;
  scope: string;
  resource: string;
  /** SHA-256 of the one refresh token of the family that is valid now. */
  tokenHash: string;
  /** SHA-256 of the token the current one replaced, and when (epoch seconds): a retry's grace window. */
  previousHash?: string;
  rotatedAt?: number;
  /** When the user signed in (epoch seconds): an operator's sign-out ends every family begun before it. */
  issuedAt: number;
  /** The sign-in provider's refresh token, sealed: each refresh asks the provider whether the user may go on. */
  upstream?: string;
  /** Absolute end of the family, epoch seconds. */
  expiresAt: number;
}

/** A family as read: absent, a revocation tombstone, or live (possibly expired: the caller compares times). */
export type FamilyRecord =
  { kind: 'unknown' } | { kind: 'revoked' } | { kind: 'family'; family: RefreshFamily };

/** A rotation to commit: the current token is replaced only if it is still `presentedHash`. */
export interface RotationCommit {
  familyId: string;
  presentedHash: string;
  nextHash: string;
  clientHash: string;
  nowSeconds: number;
  /** The provider's refresh token after this refresh, sealed (it may have rotated its own). */
  upstream?: string;
}

/** Durable state of the bridge; implementations: in memory (local, tests) and DynamoDB (deployed). */
export interface BridgeStore {
  /** Stores a new code's grant under its hash; `retainUntil` keeps the used record for replay detection. */
  saveCode(codeHash: string, grant: CodeGrant, retainUntil: number, signal: AbortSignal): Promise<void>;
  /** Reads a code without using it (the token endpoint checks and signs before it spends the code). */
  readCode(codeHash: string, signal: AbortSignal): Promise<CodeRecord>;
  /**
   * Marks the code used and records the family its tokens will belong to, atomically: of two concurrent
   * redemptions exactly one gets `redeemed`.
   */
  redeemCode(codeHash: string, familyId: string, signal: AbortSignal): Promise<CodeRedemption>;
  /** Creates a family; false when its id is already taken (e.g. revoked by a concurrent code replay). */
  createFamily(family: RefreshFamily, signal: AbortSignal): Promise<boolean>;
  /** Reads a family without changing it (every check of a refresh runs before any write). */
  readFamily(familyId: string, signal: AbortSignal): Promise<FamilyRecord>;
  /**
   * Replaces the family's current token with `nextHash`, remembering the one it replaced and when, if and only
   * if `presentedHash` is still current, the family is live, unrevoked and belongs to `clientHash`. False when
   * any of that no longer holds (a concurrent refresh won, or the family was revoked meanwhile).
   */
  commitRotation(rotation: RotationCommit, signal: AbortSignal): Promise<boolean>;
  /** Revokes a family for good; works (as a tombstone) even if the family does not exist yet. */
  revokeFamily(familyId: string, retainUntil: number, signal: AbortSignal): Promise<void>;
  /** Ends every family of `subject` begun at or before `atSeconds` (an operator's "sign out everywhere"). */
  signOut(subject: string, atSeconds: number, retainUntil: number, signal: AbortSignal): Promise<void>;
  /** When `subject` was last signed out everywhere (epoch seconds), if ever. */
  signedOutAt(subject: string, signal: AbortSignal): Promise<number | undefined>;
}
