import type { HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import type { BridgeClient } from './client.ts';
import type { BridgeDeps } from './endpoints.ts';
import { deadlineSignal, jsonResponse, randomToken } from './http.ts';
import { BridgeLimits } from './limits.ts';
import { OFFLINE_ACCESS } from './scopes.ts';

/**
 * The bridge's access tokens (RFC 9068 profile): ES256, `aud` always this MCP resource, one hour
 * (`BridgeLimits.accessTokenTtlSeconds`, the longest a revoked or signed-out session keeps working) and never past
 * the end of their refresh family, a fresh `jti` each, and `sid` naming the refresh family they came with, so
 * revoking an access token can end its family.
 */

export interface AccessGrant {
  client: BridgeClient;
  subject: string;
  scopes: readonly string[];
  /** The refresh family issued with the token, if any. */
  familyId: string | undefined;
  /** When that family ends (epoch seconds): no token it gives outlives it. */
  notAfter?: number;
}

/** A signed access token and how many seconds it lives (`expires_in`). */
export interface IssuedAccess {
  token: string;
  expiresIn: number;
}

/** Signs an access token; called before anything is committed, so a signing failure spends nothing. */
export async function mintAccessToken(
  grant: AccessGrant,
  ctx: InvocationContext,
  deps: BridgeDeps,
): Promise<IssuedAccess> {
  const now = deps.now();
  const exp = Math.min(now + BridgeLimits.accessTokenTtlSeconds, grant.notAfter ?? Infinity);
  const token = await deps.signer.sign(
    {
      iss: deps.urls.issuer,
      sub: grant.subject,
      aud: deps.resource,
      client_id: grant.client.id,
      scope: grant.scopes.filter((s) => s !== OFFLINE_ACCESS).join(' '),
      iat: now,
      exp,
      jti: randomToken(16),
      ...(grant.familyId ? { sid: grant.familyId } : {}),
    },
    deadlineSignal(ctx),
  );
  return { token, expiresIn: exp - now };
}

/** The successful token response (RFC 6749 §5.1), never cached. */
export function tokenResponse(
  access: IssuedAccess,
  scopes: readonly string[],
  refreshToken: string | undefined,
): HttpResponse {
  return jsonResponse(200, {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    scope: scopes.join(' '),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  });
}
