import { createHash, timingSafeEqual } from 'node:crypto';
import type { HttpRequest, HttpResponse, InvocationContext } from '@mcp-lambda/server';
import { BridgeLimits } from './limits.ts';
import type { BridgeClient } from './client.ts';
import { clientLabel, type BridgeDeps, type RequestNote } from './endpoints.ts';
import { deadlineSignal, jsonResponse, parseParams, randomToken, sha256 } from './http.ts';
import { isMetadataDocumentId, metadataUrlProblem } from './metadata-document.ts';
import { clientSecret, openRegisteredClient } from './registration.ts';
import { OFFLINE_ACCESS, resourceAccepted } from './scopes.ts';

/**
 * The token endpoint (OAuth 2.1 §3.2): authorization codes (single use, bound to client, redirect URI and PKCE,
 * short-lived) and refresh tokens (rotated on every use; a reused one revokes its family). Errors follow RFC 6749
 * §5.2; every answer carries `Cache-Control: no-store`.
 */

type TokenError =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target';

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const REFRESH = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

function failure(note: RequestNote, error: TokenError, description: string, basic = false): HttpResponse {
  note.error = error;
  // RFC 6749 §5.2: a client that tried HTTP Basic gets 401 with a Basic challenge.
  const status = error === 'invalid_client' ? 401 : 400;
  return jsonResponse(
    status,
    { error, error_description: description },
    basic && status === 401 ? { 'www-authenticate': 'Basic realm="token"' } : {},
  );
}

/** Client credentials as presented: HTTP Basic (RFC 6749 §2.3.1, form-encoded parts) or the form. */
function presentedCredentials(
  req: HttpRequest,
  form: ReturnType<typeof parseParams>,
): { id?: string; secret?: string; basic: boolean; conflict: boolean } {
  const header = req.headers.authorization;
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  const match = header ? /^Basic\s+([A-Za-z0-9+/]+=*)$/i.exec(header.trim()) : null;
  if (header && !match) return { basic: true, conflict: true };
  if (!match)
    return {
      ...(formId ? { id: formId } : {}),
      ...(formSecret ? { secret: formSecret } : {}),
      basic: false,
      conflict: false,
    };
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { basic: true, conflict: true };
  let id: string;
  let secret: string;
  try {
    id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  } catch {
    return { basic: true, conflict: true };
  }
  // One authentication method per request (RFC 6749 §2.3).
  const conflict = formSecret !== undefined || (formId !== undefined && formId !== id);
  return { id, secret, basic: true, conflict };
}

/** The client as the token endpoint needs it; metadata-document clients are public and need no fetch here. */
function tokenClient(clientId: string, deps: BridgeDeps): BridgeClient | undefined {
  if (isMetadataDocumentId(clientId)) {
    if (metadataUrlProblem(clientId)) return undefined;
    return {
      id: clientId,
      kind: 'metadata-document',
      redirectUris: [],
      authMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
    };
  }
  return openRegisteredClient(clientId, deps.sealer);
}

const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** POST /oauth/token */
export async function token(
  req: HttpRequest,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    return failure(note, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
  const form = parseParams(req.body);
  if (form.duplicates.length) return failure(note, 'invalid_request', 'a parameter was sent more than once');
  const tooLong = [
    'code',
    'refresh_token',
    'client_id',
    'client_secret',
    'redirect_uri',
    'code_verifier',
    'scope',
    'resource',
  ]
    .map((name) => form.get(name))
    .some((v) => v !== undefined && v.length > BridgeLimits.maxParameterChars);
  if (tooLong) return failure(note, 'invalid_request', 'a parameter is too long');

  const credentials = presentedCredentials(req, form);
  if (credentials.conflict)
    return failure(
      note,
      'invalid_client',
      'send client credentials once, either with HTTP Basic or in the body',
      credentials.basic,
    );
  if (!credentials.id) return failure(note, 'invalid_client', 'client_id is missing', credentials.basic);
  const client = tokenClient(credentials.id, deps);
  note.client = clientLabel(credentials.id);
  if (!client) return failure(note, 'invalid_client', 'the client is not known here', credentials.basic);
  if (client.authMethod === 'none') {
    if (credentials.secret !== undefined)
      return failure(note, 'invalid_client', 'this client is public and has no secret', credentials.basic);
  } else if (
    credentials.secret === undefined ||
    !equal(credentials.secret, clientSecret(deps.sealer, client.id))
  ) {
    return failure(note, 'invalid_client', 'client authentication failed', credentials.basic);
  }
  const resource = form.get('resource');
  if (resource !== undefined && !resourceAccepted(resource, deps.resource))
    return failure(note, 'invalid_target', 'this server issues tokens only for its own MCP endpoint');

  const grantType = form.get('grant_type');
  if (grantType === 'authorization_code') return redeemCode(form, client, ctx, deps, note);
  if (grantType === 'refresh_token') {
    if (!client.grantTypes.includes('refresh_token'))
      return failure(note, 'unauthorized_client', 'this client did not register for refresh tokens');
    return refresh(form, client, ctx, deps, note);
  }
  if (grantType === undefined) return failure(note, 'invalid_request', 'grant_type is missing');
  return failure(note, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

async function redeemCode(
  form: ReturnType<typeof parseParams>,
  client: BridgeClient,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const code = form.get('code');
  const redirectUri = form.get('redirect_uri');
  const verifier = form.get('code_verifier');
  if (!code) return failure(note, 'invalid_request', 'code is missing');
  if (!redirectUri) return failure(note, 'invalid_request', 'redirect_uri is missing');
  if (!verifier) return failure(note, 'invalid_request', 'code_verifier is missing (PKCE is required)');
  if (!VERIFIER.test(verifier)) return failure(note, 'invalid_request', 'code_verifier is malformed');

  // The code is spent by this attempt whatever follows: a code presented with the wrong client, redirect URI
  // or verifier was most likely stolen, and must not stay usable for a second try.
  const familyId = randomToken(16);
  const redemption = await deps.store.redeemCode(sha256(code), familyId, deadlineSignal(ctx));
  if (redemption.kind === 'unknown')
    return failure(note, 'invalid_grant', 'the authorization code is invalid or expired');
  if (redemption.kind === 'replayed') {
    // OAuth 2.1 §4.1.3: a code used twice revokes the tokens issued from it (its refresh family).
    if (redemption.familyId)
      await deps.store.revokeFamily(
        redemption.familyId,
        deps.now() + BridgeLimits.refreshTtlSeconds,
        deadlineSignal(ctx),
      );
    note.reason = 'code replayed';
    return failure(note, 'invalid_grant', 'the authorization code was already used');
  }
  const { grant } = redemption;
  if (grant.expiresAt <= deps.now())
    return failure(note, 'invalid_grant', 'the authorization code has expired');
  if (grant.clientHash !== sha256(client.id))
    return failure(note, 'invalid_grant', 'the authorization code was issued to another client');
  if (grant.redirectUri !== redirectUri)
    return failure(note, 'invalid_grant', 'redirect_uri does not match the authorization request');
  if (createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge)
    return failure(note, 'invalid_grant', 'code_verifier does not match the code_challenge');

  const scopes = grant.scope.split(' ').filter(Boolean);
  // The grant records what the client registered (a metadata document is not fetched again here).
  const refreshAllowed = grant.refresh && client.grantTypes.includes('refresh_token');
  let refreshToken: string | undefined;
  if (refreshAllowed) {
    const secret = randomToken();
    refreshToken = `${familyId}.${secret}`;
    const created = await deps.store.createFamily(
      {
        id: familyId,
        clientHash: grant.clientHash,
        subject: grant.subject,
        scope: grant.scope,
        resource: grant.resource,
        tokenHash: sha256(refreshToken),
        expiresAt: deps.now() + BridgeLimits.refreshTtlSeconds,
      },
      deadlineSignal(ctx),
    );
    if (!created) return failure(note, 'invalid_grant', 'the authorization code was already used');
  }
  return issue(client, grant.subject, scopes, refreshToken, ctx, deps);
}

async function refresh(
  form: ReturnType<typeof parseParams>,
  client: BridgeClient,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const presented = form.get('refresh_token');
  if (!presented) return failure(note, 'invalid_request', 'refresh_token is missing');
  const match = REFRESH.exec(presented);
  if (!match) return failure(note, 'invalid_grant', 'the refresh token is invalid');
  const familyId = match[1]!;
  const next = `${familyId}.${randomToken()}`;
  const now = deps.now();
  const rotation = await deps.store.rotateRefresh(
    familyId,
    sha256(presented),
    sha256(next),
    sha256(client.id),
    now,
    deadlineSignal(ctx),
  );
  if (rotation.kind !== 'rotated') {
    note.reason = `refresh ${rotation.kind}`;
    const description =
      rotation.kind === 'reused'
        ? 'the refresh token was already used; its whole family is revoked, sign in again'
        : rotation.kind === 'expired'
          ? 'the refresh token has expired'
          : 'the refresh token is invalid or revoked';
    return failure(note, 'invalid_grant', description);
  }
  const familyScopes = rotation.family.scope.split(' ').filter(Boolean);
  const requested = form.get('scope');
  let scopes = familyScopes;
  if (requested !== undefined) {
    const asked = requested.split(' ').filter(Boolean);
    if (!asked.every((s) => familyScopes.includes(s)))
      return failure(note, 'invalid_scope', 'a refresh may only narrow the granted scopes');
    scopes = asked;
  }
  return issue(client, rotation.family.subject, scopes, next, ctx, deps);
}

/** Mints the access token (RFC 9068 profile; audience always this MCP resource) and answers. */
async function issue(
  client: BridgeClient,
  subject: string,
  scopes: string[],
  refreshToken: string | undefined,
  ctx: InvocationContext,
  deps: BridgeDeps,
): Promise<HttpResponse> {
  const now = deps.now();
  const accessScopes = scopes.filter((s) => s !== OFFLINE_ACCESS);
  const accessToken = await deps.signer.sign(
    {
      iss: deps.urls.issuer,
      sub: subject,
      aud: deps.resource,
      client_id: client.id,
      scope: accessScopes.join(' '),
      iat: now,
      exp: now + BridgeLimits.accessTokenTtlSeconds,
      jti: randomToken(16),
    },
    deadlineSignal(ctx),
  );
  return jsonResponse(200, {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: BridgeLimits.accessTokenTtlSeconds,
    scope: scopes.join(' '),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  });
}
