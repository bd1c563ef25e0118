/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): the document that tells a client which authorization servers
 * issue tokens for this MCP server and which scopes exist. MCP clients find it through the `resource_metadata`
 * parameter of a 401 challenge, or at the well-known paths (MCP authorization spec, "Protected Resource Metadata
 * Discovery Requirements").
 */

/** The RFC 9728 §2 fields this server publishes. */
export interface ProtectedResourceMetadata {
  /** REQUIRED: the resource identifier, identical to the URL the metadata was derived from (RFC 9728 §3.3). */
  resource: string;
  /** Issuer identifiers of the authorization servers (MCP requires at least one). */
  authorization_servers: string[];
  /** RECOMMENDED: scopes used to request access to this resource. */
  scopes_supported?: string[];
  /** How a bearer token may be presented: only the Authorization header here (RFC 6750 §2.1). */
  bearer_methods_supported: ['header'];
  /** Human-readable name of the resource. */
  resource_name?: string;
  /** Page with human-readable documentation for developers. */
  resource_documentation?: string;
}

/** The RFC 9728 §3 well-known prefix. */
const WELL_KNOWN_PREFIX = '/.well-known/oauth-protected-resource';

/** Inputs of the document; `resource` is the MCP endpoint's absolute URL (the token audience, RFC 8707). */
export interface MetadataOptions {
  resource: string;
  authorizationServers: readonly string[];
  scopesSupported?: readonly string[];
  resourceName?: string;
  resourceDocumentation?: string;
}

/** Builds the document; throws when a required field is missing, so a misconfiguration fails at cold start. */
export function buildProtectedResourceMetadata(options: MetadataOptions): ProtectedResourceMetadata {
  if (!options.resource) throw new Error('Protected resource metadata needs a resource URL');
  if (options.authorizationServers.length === 0)
    throw new Error('Protected resource metadata needs at least one authorization server');
  return {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    ...(options.scopesSupported?.length ? { scopes_supported: [...options.scopesSupported] } : {}),
    bearer_methods_supported: ['header'],
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    ...(options.resourceDocumentation ? { resource_documentation: options.resourceDocumentation } : {}),
  };
}

/** The resource URL's path without a trailing slash ('' for a bare origin). */
function resourcePath(resource: string): string {
  return new URL(resource).pathname.replace(/\/+$/, '');
}

/**
 * Paths at which the document is served: the RFC 9728 §3.1 form (well-known prefix inserted before the resource's
 * path, e.g. `/.well-known/oauth-protected-resource/mcp`) and the root form clients fall back to.
 */
export function metadataPaths(resource: string): string[] {
  const path = resourcePath(resource);
  return path ? [`${WELL_KNOWN_PREFIX}${path}`, WELL_KNOWN_PREFIX] : [WELL_KNOWN_PREFIX];
}

/** The absolute URL of the path-specific document, for the `resource_metadata` challenge parameter (RFC 9728 §5.1). */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}${WELL_KNOWN_PREFIX}${resourcePath(resource)}`;
}
