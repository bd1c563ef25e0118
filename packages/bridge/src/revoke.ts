import { createLocalJWKSet, jwtVerify } from 'jose';
import type { HttpRequest, HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import type { BridgeDeps, RequestNote } from './endpoints.ts';
import { deadlineSignal, sha256 } from './http.ts';
import { BridgeLimits } from './limits.ts';
import { REFRESH_TOKEN } from './refresh-token.ts';
import { clientForm } from './token.ts';
import { tokenFailure } from './token-errors.ts';

/**
 * Token revocation (RFC 7009). A refresh token ends its whole family; an access token ends the family named by its
 * `sid`, and itself stays valid until it expires (at most `BridgeLimits.accessTokenTtlSeconds`: the MCP function
 * checks signatures, not a revocation list). The client authenticates as at the token endpoint and may revoke only
 * its own tokens; an invalid, expired or unknown token is answered 200 like a revoked one (§2.2).
 */

/** The family a presented token belongs to, if it is a live token of this bridge. */
type Target = { familyId: string; clientHash: string; retainUntil: number } | undefined;

async function refreshTarget(token: string, ctx: InvocationContext, deps: BridgeDeps): Promise<Target> {
  const familyId = REFRESH_TOKEN.exec(token)?.[1];
  if (!familyId) return undefined;
  const record = await deps.store.readFamily(familyId, deadlineSignal(ctx));
  if (record.kind !== 'family') return undefined;
  const { family } = record;
  const hash = sha256(token);
  // The current token, or the one it replaced (a client revoking the token it just refreshed away).
  if (family.tokenHash !== hash && family.previousHash !== hash) return undefined;
  return { familyId, clientHash: family.clientHash, retainUntil: family.expiresAt };
}

async function accessTarget(token: string, ctx: InvocationContext, deps: BridgeDeps): Promise<Target> {
  const keys = createLocalJWKSet(await deps.signer.jwks(deadlineSignal(ctx)));
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: deps.urls.issuer,
      audience: deps.resource,
      algorithms: [deps.signer.alg],
      typ: 'at+jwt',
      // The bridge's clock decides expiry, as it decided `iat` and `exp`.
      currentDate: new Date(deps.now() * 1000),
    });
    if (typeof payload.sid !== 'string' || typeof payload.client_id !== 'string') return undefined;
    const retainUntil = deps.now() + BridgeLimits.refreshTtlSeconds;
    return { familyId: payload.sid, clientHash: sha256(payload.client_id), retainUntil };
  } catch {
    return undefined;
  }
}

/** RFC 7009 §2.2: 200 with no content, never cached. */
const revoked = (): HttpResponse => ({
  status: 200,
  headers: { 'cache-control': 'no-store', pragma: 'no-cache', 'access-control-allow-origin': '*' },
  body: '',
});

/** POST /oauth/revoke */
export async function revoke(
  req: HttpRequest,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const authenticated = clientForm(req, deps, note);
  if (!('form' in authenticated)) return authenticated;
  const { form, client } = authenticated;
  const token = form.get('token');
  if (!token) return tokenFailure(note, 'invalid_request', 'token is missing');
  // §2.1: token_type_hint only speeds up a lookup; both kinds are looked for whatever it says.
  const target = REFRESH_TOKEN.test(token)
    ? await refreshTarget(token, ctx, deps)
    : await accessTarget(token, ctx, deps);
  if (!target) {
    note.reason = 'revoke: not a live token';
    return revoked();
  }
  // §2.1: the token must have been issued to the client asking; otherwise the request is refused.
  if (target.clientHash !== sha256(client.id))
    return tokenFailure(note, 'invalid_grant', 'the token was issued to another client; nothing was revoked');
  await deps.store.revokeFamily(target.familyId, target.retainUntil, deadlineSignal(ctx));
  note.reason = 'revoked';
  return revoked();
}
