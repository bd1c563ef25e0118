import { isScopeToken } from '@mcp-lambda/server/auth';

/** Scope and resource policy of the bridge (pure). */

/** The scope that asks for refresh tokens (OpenID Connect Core §11; SEP-2207 has MCP clients request it). */
export const OFFLINE_ACCESS = 'offline_access';

/**
 * The scopes granted for a request: the requested ones the bridge offers (unknown ones are ignored, RFC 6749
 * §3.3), or all offered resource scopes when none of them was asked for; `offline_access` only if requested and
 * the client may use refresh tokens.
 */
export function grantScopes(
  requested: string | undefined,
  offered: readonly string[],
  refreshAllowed: boolean,
): string[] {
  const asked = new Set((requested ?? '').split(' ').filter((s) => s && isScopeToken(s)));
  const resourceScopes = offered.filter((s) => asked.has(s));
  return [
    ...(resourceScopes.length ? resourceScopes : offered),
    ...(refreshAllowed && asked.has(OFFLINE_ACCESS) ? [OFFLINE_ACCESS] : []),
  ];
}

/**
 * Whether a requested RFC 8707 `resource` is this MCP resource: the same URL (a trailing slash aside), or a URL
 * it lives under on the same origin (as SDK clients may canonicalise). Anything else is another resource, and
 * the bridge issues tokens for this one only.
 */
export function resourceAccepted(requested: string, resource: string): boolean {
  if (!URL.canParse(requested)) return false;
  const asked = new URL(requested);
  const ours = new URL(resource);
  if (asked.hash || asked.search || asked.username || asked.password) return false;
  if (asked.origin !== ours.origin) return false;
  const askedPath = asked.pathname.replace(/\/+$/, '');
  const ourPath = ours.pathname.replace(/\/+$/, '');
  return ourPath === askedPath || ourPath.startsWith(`${askedPath}/`);
}

/**
 * The scopes of a refreshed token (RFC 6749 §6): the family's, or the narrower set the client asks for; undefined
 * when it asks for any scope the family was not granted.
 */
export function refreshedScopes(granted: string, requested: string | undefined): string[] | undefined {
  const family = granted.split(' ').filter(Boolean);
  if (requested === undefined || requested.trim() === '') return family;
  const asked = requested.split(' ').filter(Boolean);
  return asked.every((s) => family.includes(s)) ? [...new Set(asked)] : undefined;
}
