/**
 * What the bridge must remember beyond one request: single-use authorization codes and refresh-token families.
 * Only SHA-256 hashes of codes and refresh tokens are stored, so a copy of the store cannot be replayed. Every
 * record carries an expiry (epoch seconds) that the store also uses to delete it.
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
}

/** The outcome of redeeming a code: it is marked used in the same atomic step. */
export type CodeRedemption =
  | { kind: 'redeemed'; grant: CodeGrant }
  | { kind: 'unknown' }
  /** Used before: the refresh family issued from it (if any) is named so it can be revoked. */
  | { kind: 'replayed'; familyId: string | undefined };

/** A refresh-token family: every token rotated from one authorization shares it (OAuth 2.1 §4.3.1). */
export interface RefreshFamily {
  id: string;
  clientHash: string;
  subject: string;
  scope: string;
  resource: string;
  /** SHA-256 of the one refresh token of the family that is valid now. */
  tokenHash: string;
  /** Absolute end of the family, epoch seconds. */
  expiresAt: number;
}

/** The outcome of presenting a refresh token. */
export type Rotation =
  | { kind: 'rotated'; family: RefreshFamily }
  | { kind: 'unknown' }
  | { kind: 'revoked' }
  | { kind: 'expired' }
  /** An older token of the family, or a token presented by another client: the family is now revoked. */
  | { kind: 'reused' };

/** Durable state of the bridge; implementations: in memory (local, tests) and DynamoDB (deployed). */
export interface BridgeStore {
  /** Stores a new code's grant under its hash; `retainUntil` keeps the used record for replay detection. */
  saveCode(codeHash: string, grant: CodeGrant, retainUntil: number, signal: AbortSignal): Promise<void>;
  /**
   * Marks the code used and records the family its tokens will belong to, atomically: of two concurrent
   * redemptions exactly one gets `redeemed`.
   */
  redeemCode(codeHash: string, familyId: string, signal: AbortSignal): Promise<CodeRedemption>;
  /** Creates a family; false when its id is already taken (e.g. revoked by a concurrent code replay). */
  createFamily(family: RefreshFamily, signal: AbortSignal): Promise<boolean>;
  /**
   * Replaces the family's current token if `presentedHash` is it, the family is live and belongs to
   * `clientHash`; otherwise reports why, revoking the family on reuse.
   */
  rotateRefresh(
    familyId: string,
    presentedHash: string,
    nextHash: string,
    clientHash: string,
    nowSeconds: number,
    signal: AbortSignal,
  ): Promise<Rotation>;
  /** Revokes a family for good; works (as a tombstone) even if the family does not exist yet. */
  revokeFamily(familyId: string, retainUntil: number, signal: AbortSignal): Promise<void>;
}
