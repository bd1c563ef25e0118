import type { HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import { mintAccessToken, tokenResponse } from './access-token.ts';
import type { BridgeClient } from './client.ts';
import type { BridgeDeps, RequestNote } from './endpoints.ts';
import { deadlineSignal, sha256, type Params } from './http.ts';
import { judgeRefresh, type PresentedRefresh, type RefreshVerdict } from './refresh-policy.ts';
import { issuedByBridge, REFRESH_TOKEN, successorOf } from './refresh-token.ts';
import { refreshedScopes } from './scopes.ts';
import { temporarilyUnavailable, tokenFailure } from './token-errors.ts';
import { recheckUpstream } from './upstream-session.ts';

/**
 * The refresh_token grant (RFC 6749 §6, OAuth 2.1 §4.3): a retry cannot break it. Every check (family, client,
 * scope, the sign-in provider's say) runs before any write; the access token is signed before the rotation
 * commits; the rotation is one conditional write. A token's successor is derived from it with the bridge's key
 * (`refresh-token.ts`), so a retry of the same refresh within the grace window (a lost response, a timeout, two
 * concurrent refreshes) gets the same successor instead of revoking the family; reuse outside the window still
 * revokes it, and a token the bridge never issued is refused without touching the family.
 */

/** What the request says about the presented token; the store says the rest. */
type Facts = Omit<PresentedRefresh, 'signedOutAt'>;
/** A verdict that gives tokens. */
type Renewal = Extract<RefreshVerdict, { kind: 'rotate' | 'retry' }>;

/** Reads the family (and its user's last sign-out) and judges the presented token; writes nothing. */
async function judge(
  familyId: string,
  presented: Facts,
  ctx: InvocationContext,
  deps: BridgeDeps,
): Promise<RefreshVerdict> {
  const record = await deps.store.readFamily(familyId, deadlineSignal(ctx));
  const signedOutAt =
    record.kind === 'family'
      ? await deps.store.signedOutAt(record.family.subject, deadlineSignal(ctx))
      : undefined;
  return judgeRefresh(record, { ...presented, signedOutAt });
}

const REFUSALS: Record<Extract<RefreshVerdict, { kind: 'refuse' }>['reason'], string> = {
  unknown: 'the refresh token is invalid or revoked',
  revoked: 'the refresh token is invalid or revoked',
  expired: 'the refresh token has expired; sign in again',
  'signed out': 'the user was signed out; sign in again',
};

/** The answer to a token that may not refresh; reuse ends its family (OAuth 2.1 §4.3.1). */
async function refusal(
  verdict: Exclude<RefreshVerdict, { kind: 'retry' }>,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  if (verdict.kind === 'refuse') {
    note.reason = `refresh ${verdict.reason}`;
    return tokenFailure(note, 'invalid_grant', REFUSALS[verdict.reason]);
  }
  if (verdict.kind === 'rotate') {
    // The rotation did not commit although the token is still current: the family just expired.
    note.reason = 'refresh expired';
    return tokenFailure(note, 'invalid_grant', REFUSALS.expired);
  }
  note.reason = 'refresh reused';
  await deps.store.revokeFamily(verdict.family.id, verdict.family.expiresAt, deadlineSignal(ctx));
  return tokenFailure(
    note,
    'invalid_grant',
    'the refresh token was already used or belongs to another client; its whole family is revoked, sign in again',
  );
}

/**
 * The sign-in provider's say before a rotation: go on (with the provider's token to keep), or the answer that ends
 * this request. A retry within the grace window is not asked again: the refresh it repeats asked seconds ago.
 */
async function providerSays(
  verdict: Renewal,
  facts: Facts,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<{ verdict: Renewal; upstream: string | undefined } | HttpResponse> {
  if (verdict.kind === 'retry') return { verdict, upstream: undefined };
  const said = await recheckUpstream(verdict.family, ctx, deps);
  if (said.kind === 'accepted') return { verdict, upstream: said.upstream };
  note.reason = said.reason;
  if (said.kind === 'unavailable')
    return temporarilyUnavailable(note, 'the sign-in provider could not be asked; try again shortly');
  // A provider that rotates its own tokens refuses one already used, as by a refresh of this same token that was
  // under way meanwhile (the first try of a retry sent while the provider was slow): if that one committed, this is
  // its retry, and the provider's yes to it stands.
  const again = await judge(verdict.family.id, facts, ctx, deps);
  if (again.kind === 'retry') return { verdict: again, upstream: undefined };
  await deps.store.revokeFamily(verdict.family.id, verdict.family.expiresAt, deadlineSignal(ctx));
  return tokenFailure(
    note,
    'invalid_grant',
    'the sign-in provider no longer accepts this user; sign in again',
  );
}

/** POST /oauth/token with grant_type=refresh_token (client already authenticated, resource already checked). */
export async function refreshGrant(
  form: Params,
  client: BridgeClient,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const presented = form.get('refresh_token');
  if (!presented) return tokenFailure(note, 'invalid_request', 'refresh_token is missing');
  const match = REFRESH_TOKEN.exec(presented);
  if (!match) return tokenFailure(note, 'invalid_grant', 'the refresh token is invalid');
  const familyId = match[1]!;
  const next = successorOf(deps.sealer, presented, familyId);
  const nowSeconds = deps.now();
  const facts = {
    presentedHash: sha256(presented),
    successorHash: sha256(next),
    clientHash: sha256(client.id),
    issued: issuedByBridge(deps.sealer, presented),
    nowSeconds,
  };
  const verdict = await judge(familyId, facts, ctx, deps);
  if (verdict.kind === 'refuse' || verdict.kind === 'reuse') return refusal(verdict, ctx, deps, note);
  const scopes = refreshedScopes(verdict.family.scope, form.get('scope'));
  if (!scopes)
    return tokenFailure(
      note,
      'invalid_scope',
      'a refresh may only narrow the granted scopes; the refresh token still works',
    );

  const go = await providerSays(verdict, facts, ctx, deps, note);
  if ('status' in go) return go;
  const { family } = go.verdict;
  const accessToken = await mintAccessToken(
    { client, subject: family.subject, scopes, familyId, notAfter: family.expiresAt },
    ctx,
    deps,
  );
  if (go.verdict.kind === 'rotate') {
    const rotation = { familyId, ...facts, nextHash: facts.successorHash, upstream: go.upstream };
    if (!(await deps.store.commitRotation(rotation, deadlineSignal(ctx)))) {
      // A concurrent refresh with the same token committed first (a retry: same successor), or the family ended.
      const again = await judge(familyId, facts, ctx, deps);
      if (again.kind !== 'retry') return refusal(again, ctx, deps, note);
    }
  } else note.reason = 'refresh retried within the grace window';
  return tokenResponse(accessToken, scopes, next);
}
