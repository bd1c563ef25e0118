/**
 * The OAuth clients the bridge knows, whichever way they registered: a sealed registration from Dynamic Client
 * Registration (RFC 7591) or a Client ID Metadata Document (an https URL as client_id).
 */

/** How a client authenticates at the token endpoint (RFC 7591 §2 `token_endpoint_auth_method`). */
export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** The grant types the bridge offers. */
export type GrantType = 'authorization_code' | 'refresh_token';

/** A client as the authorization and token endpoints see it. */
export interface BridgeClient {
  /** The client_id exactly as the client presents it. */
  id: string;
  /** `registered` (DCR, sealed) or `metadata-document` (CIMD URL). */
  kind: 'registered' | 'metadata-document';
  /** Human-readable name for the consent page (capped, control characters removed); may be absent. */
  name?: string;
  redirectUris: string[];
  authMethod: ClientAuthMethod;
  grantTypes: GrantType[];
}

/** Why a client_id cannot be used, as an OAuth error description (never echoing the id itself). */
interface ClientProblem {
  error: 'invalid_client' | 'invalid_request';
  description: string;
  /** A temporary failure (a CIMD document that could not be fetched), not proof the client is invalid. */
  temporary?: boolean;
}

export type ClientResolution = { ok: true; client: BridgeClient } | { ok: false; problem: ClientProblem };

/** Makes a client name safe to show: no control or bidi-override characters, trimmed, capped. */
export function displayName(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const clean = value
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .trim();
  if (!clean) return undefined;
  return [...clean].slice(0, max).join('');
}
