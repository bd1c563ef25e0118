import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import { mintAccessToken, tokenResponse } from './access-token.ts';
import type { BridgeClient } from './client.ts';
import { authenticateClient } from './client-auth.ts';
import { clientLabel, type BridgeDeps, type RequestNote } from './endpoints.ts';
import { deadlineSignal, parseParams, randomToken, sha256, type Params } from './http.ts';
import { BridgeLimits } from './limits.ts';
import { refreshGrant } from './refresh.ts';
import { firstRefreshToken } from './refresh-token.ts';
import { resourceAccepted } from './scopes.ts';
import type { CodeGrant } from './store.ts';
import { tokenFailure } from './token-errors.ts';

/**
 * The token endpoint (OAuth 2.1 §3.2): authorization codes (single use, bound to client, redirect URI and PKCE,
 * short-lived) and refresh tokens (`refresh.ts`). Every check runs and the access token is signed before the code
 * is spent, so a signing timeout leaves the code usable for the client's retry. Errors follow RFC 6749 §5.2;
 * every answer carries `Cache-Control: no-store`.
 */

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const BOUNDED = [
  'code',
  'refresh_token',
  'client_id',
  'client_secret',
  'redirect_uri',
  'code_verifier',
  'scope',
  'resource',
];

/** The form of a token or revocation request, or the error that refuses it before anything else is read. */
function tokenForm(req: HttpRequest, note: RequestNote): Params | HttpResponse {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    return tokenFailure(note, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
  const form = parseParams(req.body);
  if (form.duplicates.length)
    return tokenFailure(note, 'invalid_request', 'a parameter was sent more than once');
  const tooLong = [...BOUNDED, 'token', 'token_type_hint']
    .map((name) => form.get(name))
    .some((v) => v !== undefined && v.length > BridgeLimits.maxParameterChars);
  if (tooLong) return tokenFailure(note, 'invalid_request', 'a parameter is too long');
  return form;
}

/** The form of a token or revocation request and its authenticated client, or the error that refuses it. */
export function clientForm(
  req: HttpRequest,
  deps: BridgeDeps,
  note: RequestNote,
): { form: Params; client: BridgeClient } | HttpResponse {
  const form = tokenForm(req, note);
  if (!('get' in form)) return form;
  const auth = authenticateClient(req, form, deps);
  if (auth.clientId) note.client = clientLabel(auth.clientId);
  if (!auth.ok) return tokenFailure(note, 'invalid_client', auth.description, auth.basic);
  return { form, client: auth.client };
}

/** POST /oauth/token */
export async function token(
  req: HttpRequest,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const authenticated = clientForm(req, deps, note);
  if (!('form' in authenticated)) return authenticated;
  const { form, client } = authenticated;
  const resource = form.get('resource');
  if (resource !== undefined && !resourceAccepted(resource, deps.resource))
    return tokenFailure(note, 'invalid_target', 'this server issues tokens only for its own MCP endpoint');

  const grantType = form.get('grant_type');
  if (grantType === 'authorization_code') return redeemCode(form, client, ctx, deps, note);
  if (grantType === 'refresh_token') {
    if (!client.grantTypes.includes('refresh_token'))
      return tokenFailure(note, 'unauthorized_client', 'this client did not register for refresh tokens');
    return refreshGrant(form, client, ctx, deps, note);
  }
  if (grantType === undefined) return tokenFailure(note, 'invalid_request', 'grant_type is missing');
  return tokenFailure(
    note,
    'unsupported_grant_type',
    'grant_type must be authorization_code or refresh_token',
  );
}

/** Why a code may not be redeemed by this request (OAuth 2.1 §4.1.3), or undefined. */
function codeProblem(
  grant: CodeGrant,
  client: BridgeClient,
  redirectUri: string,
  verifier: string,
  now: number,
) {
  if (grant.expiresAt <= now) return 'the authorization code has expired';
  if (grant.clientHash !== sha256(client.id)) return 'the authorization code was issued to another client';
  if (grant.redirectUri !== redirectUri) return 'redirect_uri does not match the authorization request';
  if (createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge)
    return 'code_verifier does not match the code_challenge';
  return undefined;
}

/** When the user signed in for this code (it was issued right after): a sign-out at or after it ends what it gives. */
const signedInAt = (grant: CodeGrant) => grant.expiresAt - BridgeLimits.codeTtlSeconds;

/** Whether the user was signed out everywhere since the sign-in this code comes from. */
async function signedOutSince(grant: CodeGrant, ctx: InvocationContext, deps: BridgeDeps) {
  const signedOutAt = await deps.store.signedOutAt(grant.subject, deadlineSignal(ctx));
  return signedOutAt !== undefined && signedInAt(grant) <= signedOutAt;
}

async function redeemCode(
  form: Params,
  client: BridgeClient,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const code = form.get('code');
  const redirectUri = form.get('redirect_uri');
  const verifier = form.get('code_verifier');
  if (!code) return tokenFailure(note, 'invalid_request', 'code is missing');
  if (!redirectUri) return tokenFailure(note, 'invalid_request', 'redirect_uri is missing');
  if (!verifier) return tokenFailure(note, 'invalid_request', 'code_verifier is missing (PKCE is required)');
  if (!VERIFIER.test(verifier)) return tokenFailure(note, 'invalid_request', 'code_verifier is malformed');

  const codeHash = sha256(code);
  const revoke = (familyId: string | undefined) =>
    familyId
      ? deps.store.revokeFamily(familyId, deps.now() + BridgeLimits.refreshTtlSeconds, deadlineSignal(ctx))
      : Promise.resolve();
  const replayed = async (familyId: string | undefined) => {
    // OAuth 2.1 §4.1.3: a code used twice revokes the tokens issued from it (its refresh family).
    await revoke(familyId);
    note.reason = 'code replayed';
    return tokenFailure(note, 'invalid_grant', 'the authorization code was already used');
  };
  const record = await deps.store.readCode(codeHash, deadlineSignal(ctx));
  if (!record) return tokenFailure(note, 'invalid_grant', 'the authorization code is invalid or expired');
  if (record.usedBy !== undefined) return replayed(record.usedBy);
  const problem = codeProblem(record.grant, client, redirectUri, verifier, deps.now());
  if (problem) {
    // Spent by this attempt: a code presented with the wrong client, redirect URI or verifier was most likely
    // stolen, and must not stay usable for a second try.
    const spent = await deps.store.redeemCode(codeHash, randomToken(16), deadlineSignal(ctx));
    if (spent.kind === 'replayed') await revoke(spent.familyId);
    return tokenFailure(note, 'invalid_grant', problem);
  }
  if (await signedOutSince(record.grant, ctx, deps)) {
    note.reason = 'code signed out';
    return tokenFailure(note, 'invalid_grant', 'the user was signed out after this sign-in; sign in again');
  }
  return issueForCode(codeHash, record.grant, client, ctx, deps, note, replayed);
}

/** Signs, then spends the code and creates the refresh family (the grant records what the client registered). */
async function issueForCode(
  codeHash: string,
  grant: CodeGrant,
  client: BridgeClient,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
  replayed: (familyId: string | undefined) => Promise<HttpResponse>,
): Promise<HttpResponse> {
  const familyId = randomToken(16);
  const refreshAllowed = grant.refresh && client.grantTypes.includes('refresh_token');
  // Without the provider's refresh token the user could not be re-checked on refresh, so there is none here.
  const refresh = refreshAllowed && grant.upstream !== undefined;
  if (refreshAllowed && !refresh)
    ctx.log.warn('no refresh token issued: the sign-in provider issued none to re-check the user with');
  const scopes = grant.scope.split(' ').filter(Boolean);
  const accessToken = await mintAccessToken(
    { client, subject: grant.subject, scopes, familyId: refresh ? familyId : undefined },
    ctx,
    deps,
  );
  const redemption = await deps.store.redeemCode(codeHash, familyId, deadlineSignal(ctx));
  if (redemption.kind === 'unknown')
    return tokenFailure(note, 'invalid_grant', 'the authorization code is invalid or expired');
  if (redemption.kind === 'replayed') return replayed(redemption.familyId);
  if (!refresh) return tokenResponse(accessToken, scopes, undefined);
  const refreshToken = firstRefreshToken(deps.sealer, familyId);
  const created = await deps.store.createFamily(
    {
      id: familyId,
      clientHash: grant.clientHash,
      subject: grant.subject,
      scope: grant.scope,
      resource: grant.resource,
      tokenHash: sha256(refreshToken),
      // The sign-in time: a sign-out after it ends this family too.
      issuedAt: signedInAt(grant),
      upstream: redemption.grant.upstream ?? grant.upstream,
      expiresAt: deps.now() + BridgeLimits.refreshTtlSeconds,
    },
    deadlineSignal(ctx),
  );
  if (!created) return tokenFailure(note, 'invalid_grant', 'the authorization code was already used');
  return tokenResponse(accessToken, scopes, refreshToken);
}
