import { nodeCrypto } from '../crypto.ts';

/** The authenticated caller of one request, as the access token describes it. */
export interface Principal {
  /** The token's `sub`: the user (or client, for machine tokens) the token speaks for. */
  subject: string;
  /** The token's `iss`. */
  issuer: string;
  /** The OAuth client the token was issued to (`client_id`, else `azp`), when the token names one. */
  clientId?: string;
  /** Scopes granted by the token (`scope`, space-separated, or `scp`, a list). */
  scopes: readonly string[];
  /** Epoch seconds after which the token is no longer accepted. */
  expiresAt: number;
  /**
   * A stable, opaque key for this caller (a SHA-256 digest of issuer and subject, base64url): use it to bind
   * data to the caller without storing the identifiers themselves, e.g. in object keys or metadata.
   */
  key: string;
}

/** Derives `Principal.key`: the same issuer and subject always give the same key, and no two callers share one. */
export function principalKey(issuer: string, subject: string): string {
  // A separator that cannot occur in either part keeps ("a", "bc") and ("ab", "c") apart.
  return nodeCrypto().createHash('sha256').update(`${issuer}\u0000${subject}`).digest('base64url');
}
