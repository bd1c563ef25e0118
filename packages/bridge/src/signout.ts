import { BridgeLimits } from './limits.ts';
import type { BridgeStore } from './store.ts';

/**
 * Signs a user out everywhere: every refresh family of `subject` begun until now ends at its next refresh, and a
 * code from a sign-in until now is refused (their access tokens expire within `BridgeLimits.accessTokenTtlSeconds`). One record per subject, kept as long as a
 * family begun before it can live, so no family needs to be found or listed. Returns the sign-out time.
 */
export async function signOutEverywhere(
  store: BridgeStore,
  subject: string,
  nowSeconds: number,
  signal: AbortSignal = AbortSignal.timeout(BridgeLimits.outboundTimeoutMs),
): Promise<number> {
  if (!subject || subject.length > 255)
    throw new Error('A subject is 1 to 255 characters (the `sub` the provider gives)');
  await store.signOut(subject, nowSeconds, nowSeconds + BridgeLimits.refreshTtlSeconds, signal);
  return nowSeconds;
}
