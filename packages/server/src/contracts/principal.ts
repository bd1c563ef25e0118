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
   * A stable, opaque key for this person (a SHA-256 digest of issuer and subject, base64url), the same from every
   * client they use: what they own across their clients (stored outputs and tasks) is bound to it. Use it to bind
   * data to the caller without storing the identifiers themselves, e.g. in object keys or metadata.
   */
  key: string;
  /**
   * A stable, opaque key for this person as this client (`clientKeyOf` in auth/principal.ts): `key` and `clientId` digested
   * together, or `key` itself when the token names no client. What one client holds must not serve another client
   * of the same person (a copied session id, a pending question, a cut stream, a `requestState`, an approval
   * proof), so those are bound to this key.
   */
  clientKey: string;
}
