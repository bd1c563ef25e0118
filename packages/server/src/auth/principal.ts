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
   * A stable, opaque key for this person (a SHA-256 digest of issuer and subject, base64url), the same from every
   * client they use: what they own across their clients (stored outputs and tasks) is bound to it. Use it to bind
   * data to the caller without storing the identifiers themselves, e.g. in object keys or metadata.
   */
  key: string;
  /**
   * A stable, opaque key for this person as this client ({@link clientKeyOf}): `key` and `clientId` digested
   * together, or `key` itself when the token names no client. What one client holds must not serve another client
   * of the same person (a copied session id, a pending question, a cut stream, a `requestState`, an approval
   * proof), so those are bound to this key.
   */
  clientKey: string;
}

const sha256 = (text: string) => nodeCrypto().createHash('sha256').update(text).digest('base64url');

/** Derives `Principal.key`: the same issuer and subject always give the same key, and no two callers share one. */
export function principalKey(issuer: string, subject: string): string {
  // A separator that cannot occur in the issuer (an https URL) keeps ("a", "bc") and ("ab", "c") apart.
  return sha256(`${issuer}\u0000${subject}`);
}

/**
 * Derives `Principal.clientKey` from the person's `key` and the token's client. A token without a client keeps the
 * person's key (bound to issuer and subject, as before clients were told apart); with one, the key and the client
 * id are digested together. The key is base64url, so the NUL after it cannot occur in it and the text splits one
 * way only; it starts with a key, never with an https issuer, so it is never the text a `principalKey` digests.
 */
export function clientKeyOf(key: string, clientId: string | undefined): string {
  return clientId === undefined ? key : sha256(`${key}\u0000${clientId}`);
}

/** Both keys of a caller: the person's, and the person's as this client. */
export function principalKeys(
  issuer: string,
  subject: string,
  clientId: string | undefined,
): Pick<Principal, 'key' | 'clientKey'> {
  const key = principalKey(issuer, subject);
  return { key, clientKey: clientKeyOf(key, clientId) };
}
