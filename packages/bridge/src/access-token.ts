import type { HttpResponse, InvocationContext } from '@mcp-lambda/server';
import type { BridgeClient } from './client.ts';
import type { BridgeDeps } from './endpoints.ts';
import { deadlineSignal, jsonResponse, randomToken } from './http.ts';
import { BridgeLimits } from './limits.ts';
import { OFFLINE_ACCESS } from './scopes.ts';

/**
 * The bridge's access tokens (RFC 9068 profile): ES256, `aud` always this MCP resource, one hour
 * (`BridgeLimits.accessTokenTtlSeconds`, the longest a revoked or signed-out session keeps working), a fresh `jti`
 * each, and `sid` naming the refresh family they came with, so revoking an access token can end its family.
 */

export interface AccessGrant {
  client: BridgeClient;
  subject: string;
  scopes: readonly string[];
  /** The refresh family issued with the token, if any. */
  familyId: string | undefined;
}

/** Signs an access token; called before anything is committed, so a signing failure spends nothing. */
export function mintAccessToken(
  grant: AccessGrant,
  ctx: InvocationContext,
  deps: BridgeDeps,
): Promise<string> {
  const now = deps.now();
  return deps.signer.sign(
    {
      iss: deps.urls.issuer,
      sub: grant.subject,
      aud: deps.resource,
      client_id: grant.client.id,
      scope: grant.scopes.filter((s) => s !== OFFLINE_ACCESS).join(' '),
      iat: now,
      exp: now + BridgeLimits.accessTokenTtlSeconds,
      jti: randomToken(16),
      ...(grant.familyId ? { sid: grant.familyId } : {}),
    },
    deadlineSignal(ctx),
  );
}

/** The successful token response (RFC 6749 §5.1), never cached. */
export function tokenResponse(
  accessToken: string,
  scopes: readonly string[],
  refreshToken: string | undefined,
): HttpResponse {
  return jsonResponse(200, {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: BridgeLimits.accessTokenTtlSeconds,
    scope: scopes.join(' '),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  });
}
