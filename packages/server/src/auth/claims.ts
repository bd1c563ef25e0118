import type { FlattenedJWSInput, JWTPayload } from 'jose';
import { isJsonObject } from '../protocol/json.ts';

/**
 * Claim rules beyond what jose checks (pure policy): how long a token may still be valid, the shape of `scope`,
 * and whether an unverified token is plausible enough to make the key cache look for a key id it does not know.
 */

/** What the rules need to know about this resource server. */
export interface ClaimRules {
  issuer: string;
  audiences: readonly string[];
  /** Allowed clock difference with the issuer, in seconds. */
  clockTolerance: number;
  /** A token may be valid for at most this many seconds from now (its `exp`). */
  maxLifetimeSeconds: number;
}

/**
 * Why a token's claims are refused, in words a developer can act on; undefined when they are fine.
 * - `exp` further ahead than `maxLifetimeSeconds` (a year-9999 token, say): a leaked token must not live forever.
 * - `scope` that is not a string: RFC 9068 §2.2.3 makes it one space-separated string; an array is refused rather
 *   than guessed at (`scp`, a common non-standard claim, may still be a list).
 */
export function claimsProblem(
  payload: JWTPayload,
  rules: ClaimRules,
  nowSeconds: number,
): string | undefined {
  if (payload.scope !== undefined && typeof payload.scope !== 'string')
    return 'The access token\'s "scope" claim must be a space-separated string (RFC 9068)';
  if (
    typeof payload.exp === 'number' &&
    payload.exp - nowSeconds > rules.maxLifetimeSeconds + rules.clockTolerance
  )
    return `The access token is valid for longer than the ${rules.maxLifetimeSeconds} s this resource accepts`;
  return undefined;
}

/**
 * Whether a token not yet verified could pass every check that does not need its signature: issuer, audience,
 * expiry, not-before and the rules above. Only such a token may make the key cache refetch for an unknown key id,
 * so junk tokens cannot keep the refetch interval busy.
 */
export function isPlausible(token: FlattenedJWSInput, rules: ClaimRules, nowSeconds: number): boolean {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(String(token.payload), 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  if (!isJsonObject(payload) || payload.iss !== rules.issuer) return false;
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.some((a) => typeof a === 'string' && rules.audiences.includes(a))) return false;
  const { exp, nbf } = payload;
  if (typeof exp !== 'number' || exp + rules.clockTolerance < nowSeconds) return false;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf - rules.clockTolerance > nowSeconds)) return false;
  return claimsProblem(payload as JWTPayload, rules, nowSeconds) === undefined;
}
