import type { Principal } from '../contracts/principal.ts';
import { nodeCrypto } from '../crypto.ts';

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
