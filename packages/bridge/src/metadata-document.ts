import { BridgeLimits } from './limits.ts';
import { displayName, type BridgeClient, type GrantType } from './client.ts';
import { redirectUriProblem } from './redirect-uri.ts';

/**
 * Client ID Metadata Documents (MCP 2025-11-25, IETF draft-ietf-oauth-client-id-metadata-document): a client_id
 * that is an https URL names a JSON document the client publishes there. Pure rules for the URL and the
 * document; fetching lives in `metadata-fetch.ts`.
 */

/** Whether a client_id looks like a metadata document URL (then it is one, or it is invalid). */
export function isMetadataDocumentId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * Why a client_id URL is not acceptable, or undefined: https, a path other than `/`, no fragment, no
 * credentials, no dot segments, no query (the draft says SHOULD NOT; refusing keeps one document per client),
 * bounded length.
 */
export function metadataUrlProblem(clientId: string): string | undefined {
  if (clientId.length > BridgeLimits.maxUriChars)
    return `a client_id URL must be at most ${BridgeLimits.maxUriChars} characters`;
  if (!URL.canParse(clientId)) return 'the client_id is not a valid URL';
  const url = new URL(clientId);
  if (url.protocol !== 'https:') return 'a client_id URL must use https';
  if (url.username || url.password) return 'a client_id URL must not contain credentials';
  if (clientId.includes('#')) return 'a client_id URL must not contain a fragment';
  if (url.search || clientId.includes('?')) return 'a client_id URL must not contain a query';
  if (url.pathname === '/' || url.pathname === '') return 'a client_id URL must have a path';
  if (/(^|\/)\.\.?(\/|$)/.test(clientId.slice(url.origin.length)))
    return 'a client_id URL must not contain dot segments';
  // The URL parser would normalise what the client sent; the document must be fetched from exactly that URL.
  if (url.href !== clientId) return 'a client_id URL must be in normalised form';
  return undefined;
}

/**
 * Validates a fetched document for `clientId`: its `client_id` must equal the URL exactly, its redirect URIs must
 * pass the same rules as a registration, and it must be a public client (symmetric secrets cannot be published;
 * `private_key_jwt` is not supported here).
 */
export function parseMetadataDocument(
  clientId: string,
  document: unknown,
): { ok: true; client: BridgeClient } | { ok: false; description: string } {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    return { ok: false, description: 'the client metadata document is not a JSON object' };
  const doc = document as Record<string, unknown>;
  if (doc.client_id !== clientId)
    return { ok: false, description: 'the client metadata document names a different client_id' };
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > BridgeLimits.maxRedirectUris)
    return {
      ok: false,
      description: `the client metadata document must list 1 to ${BridgeLimits.maxRedirectUris} redirect_uris`,
    };
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return { ok: false, description: `the client metadata document is invalid: ${problem}` };
  }
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    return {
      ok: false,
      description: 'a client metadata document client must use token_endpoint_auth_method "none"',
    };
  const grants = Array.isArray(doc.grant_types) ? doc.grant_types : ['authorization_code'];
  const grantTypes = (['authorization_code', 'refresh_token'] as const).filter((g) => grants.includes(g));
  if (!grantTypes.includes('authorization_code'))
    return { ok: false, description: 'the client metadata document must allow authorization_code' };
  const name = displayName(doc.client_name, BridgeLimits.maxClientNameChars);
  return {
    ok: true,
    client: {
      id: clientId,
      kind: 'metadata-document',
      ...(name ? { name } : {}),
      redirectUris: [...new Set(uris as string[])],
      authMethod: 'none',
      grantTypes: grantTypes as GrantType[],
    },
  };
}

/** How long a fetched document may be reused, from its Cache-Control header (RFC 9111 §5.2.2), within our caps. */
export function cacheSeconds(cacheControl: string | undefined): number {
  if (cacheControl === undefined) return BridgeLimits.cimdDefaultCacheSeconds;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache' || d === 'private')) return 0;
  const maxAge = directives.map((d) => /^max-age="?(\d+)"?$/.exec(d)).find(Boolean);
  if (!maxAge) return BridgeLimits.cimdDefaultCacheSeconds;
  return Math.min(Number(maxAge[1]), BridgeLimits.cimdMaxCacheSeconds);
}
