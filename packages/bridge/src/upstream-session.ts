import type { InvocationContext } from '@mcp-lambda/server/lambda';
import type { BridgeDeps } from './endpoints.ts';
import { deadlineSignal } from './http.ts';
import { BridgeLimits } from './limits.ts';
import type { RefreshFamily } from './store.ts';

/**
 * The sign-in provider's say in a bridge session. Its refresh token is sealed (AES-256-GCM under the bridge's key,
 * bound to the user) and kept with the refresh family; every refresh of the bridge's tokens presents it to the
 * provider, so a user the provider disabled, deleted or signed out cannot refresh here either. Chosen over an
 * administrator lookup (Cognito's AdminGetUser) because it works with any OpenID provider, needs no extra
 * permission, and also sees the provider's own sign-outs.
 */

interface SealedToken {
  /** The user it belongs to: a sealed token moved to another user's family is refused. */
  s: string;
  /** The provider's refresh token. */
  t: string;
}

/** Seals the provider's refresh token for `subject`, to be kept with the family. */
export function sealUpstreamToken(deps: BridgeDeps, subject: string, token: string): string {
  return deps.sealer.seal(
    'upstream-refresh',
    { s: subject, t: token } satisfies SealedToken,
    BridgeLimits.refreshTtlSeconds,
  );
}

function openUpstreamToken(deps: BridgeDeps, family: RefreshFamily): string | undefined {
  const value = family.upstream
    ? (deps.sealer.open('upstream-refresh', family.upstream) as SealedToken)
    : undefined;
  return value && typeof value === 'object' && value.s === family.subject && typeof value.t === 'string'
    ? value.t
    : undefined;
}

/** What the provider said: go on (with the sealed token to keep now), the user is refused, or ask again later. */
export type UpstreamVerdict =
  | { kind: 'accepted'; upstream: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'unavailable'; reason: string };

/** Asks the provider whether the family's user may go on, within the invocation's deadline. */
export async function recheckUpstream(
  family: RefreshFamily,
  ctx: InvocationContext,
  deps: BridgeDeps,
): Promise<UpstreamVerdict> {
  const token = openUpstreamToken(deps, family);
  // A family the provider gave no refresh token for cannot be re-checked, so it is not renewed.
  if (!token) return { kind: 'refused', reason: 'the family holds no sign-in provider token' };
  const answer = await deps.upstream.refresh(
    { refreshToken: token, subject: family.subject },
    deadlineSignal(ctx),
  );
  if (!answer.ok)
    return answer.temporary
      ? { kind: 'unavailable', reason: answer.reason }
      : { kind: 'refused', reason: answer.reason };
  const upstream =
    answer.refreshToken === token
      ? family.upstream!
      : sealUpstreamToken(deps, family.subject, answer.refreshToken);
  return { kind: 'accepted', upstream };
}
