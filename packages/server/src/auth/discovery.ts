import { fetchJsonObject, type RemoteJsonOptions } from './remote-json.ts';

/**
 * Where an issuer's metadata may live, in the order the MCP authorization spec has clients try them: RFC 8414 §3.1
 * (well-known segment inserted before the issuer's path), then OpenID Connect Discovery with insertion and with
 * appending.
 */
export function metadataCandidates(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  if (!path) {
    return [
      `${url.origin}/.well-known/oauth-authorization-server`,
      `${url.origin}/.well-known/openid-configuration`,
    ];
  }
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Finds the issuer's `jwks_uri` from its published metadata. The document must name the very same issuer
 * (RFC 8414 §3.3) and a key URL on the issuer's scheme, so a spoofed document cannot redirect key lookups.
 */
export async function discoverJwksUri(issuer: string, options: RemoteJsonOptions = {}): Promise<string> {
  const problems: string[] = [];
  for (const candidate of metadataCandidates(issuer)) {
    let document: Record<string, unknown>;
    try {
      document = await fetchJsonObject(candidate, options);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    if (document.issuer !== issuer) {
      problems.push(`${candidate} names a different issuer`);
      continue;
    }
    const jwksUri = document.jwks_uri;
    if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri)) {
      problems.push(`${candidate} has no valid jwks_uri`);
      continue;
    }
    if (new URL(jwksUri).protocol !== new URL(issuer).protocol) {
      problems.push(`${candidate} names a jwks_uri on another scheme`);
      continue;
    }
    return jwksUri;
  }
  throw new Error(`No usable authorization server metadata for ${issuer}: ${problems.join('; ')}`);
}
