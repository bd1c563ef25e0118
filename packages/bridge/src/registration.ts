import { BridgeLimits } from './limits.ts';
import { displayName, type BridgeClient, type ClientAuthMethod, type GrantType } from './client.ts';
import { redirectUriProblem } from './redirect-uri.ts';
import type { Sealer } from './seal.ts';

/**
 * Dynamic Client Registration (RFC 7591) without a table: the registration itself, validated and capped, is
 * sealed into the client_id the client gets back. Nothing is stored per registration, so a flood of
 * registrations costs no storage; strict limits on the metadata keep each client_id small.
 */

/** The RFC 7591 §3.2.1 response body. */
export interface RegistrationResponse {
  client_id: string;
  client_id_issued_at: number;
  client_secret?: string;
  client_secret_expires_at?: 0;
  client_name?: string;
  redirect_uris: string[];
  grant_types: GrantType[];
  response_types: ['code'];
  token_endpoint_auth_method: ClientAuthMethod;
}

/** An RFC 7591 §3.2.2 error. */
export interface RegistrationError {
  error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  error_description: string;
}

/** What is sealed into a registered client_id (short keys keep it compact). */
interface SealedRegistration {
  /** redirect_uris */
  r: string[];
  /** client_name */
  n?: string;
  /** token_endpoint_auth_method */
  a: ClientAuthMethod;
  /** grant_types */
  g: GrantType[];
  /** issued at, epoch seconds */
  t: number;
}

/** Sealed client ids start with this, so they are told apart from CIMD URLs at a glance. */
const REGISTERED_CLIENT_PREFIX = 'mcpc_';
const AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
const GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token'];

const fail = (error: RegistrationError['error'], description: string) => ({
  ok: false as const,
  error: { error, error_description: description },
});

/**
 * Validates client metadata (pure). Unknown members are ignored (RFC 7591 §2); URLs that would be shown to the
 * user (logo_uri, client_uri, policy_uri, tos_uri) are ignored too, so a registration cannot put a link on the
 * consent page.
 */
export function validateRegistration(
  body: unknown,
): { ok: true; registration: Omit<SealedRegistration, 't'> } | { ok: false; error: RegistrationError } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail('invalid_client_metadata', 'the request body must be a JSON object');
  const metadata = body as Record<string, unknown>;
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0)
    return fail('invalid_redirect_uri', 'redirect_uris must be a non-empty array');
  if (uris.length > BridgeLimits.maxRedirectUris)
    return fail(
      'invalid_redirect_uri',
      `at most ${BridgeLimits.maxRedirectUris} redirect_uris may be registered`,
    );
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return fail('invalid_redirect_uri', problem);
  }
  const method = metadata.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!AUTH_METHODS.includes(method as ClientAuthMethod))
    return fail(
      'invalid_client_metadata',
      `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`,
    );
  const grants = metadata.grant_types ?? ['authorization_code'];
  if (
    !Array.isArray(grants) ||
    grants.length === 0 ||
    grants.length > GRANT_TYPES.length ||
    !grants.every((g) => GRANT_TYPES.includes(g as GrantType)) ||
    !grants.includes('authorization_code')
  )
    return fail(
      'invalid_client_metadata',
      'grant_types must include authorization_code and may add refresh_token',
    );
  const responses = metadata.response_types ?? ['code'];
  if (!Array.isArray(responses) || responses.length !== 1 || responses[0] !== 'code')
    return fail('invalid_client_metadata', 'response_types must be exactly code');
  if (metadata.client_name !== undefined && typeof metadata.client_name !== 'string')
    return fail('invalid_client_metadata', 'client_name must be a string');
  const name = displayName(metadata.client_name, BridgeLimits.maxClientNameChars);
  return {
    ok: true,
    registration: {
      r: [...new Set(uris as string[])],
      ...(name ? { n: name } : {}),
      a: method as ClientAuthMethod,
      g: [...new Set(grants as GrantType[])],
    },
  };
}

/** Registers a client: seals the validated metadata into its client_id and derives its secret if it has one. */
export function register(
  registration: Omit<SealedRegistration, 't'>,
  sealer: Sealer,
  nowSeconds: number,
): RegistrationResponse {
  const sealed: SealedRegistration = { ...registration, t: nowSeconds };
  const clientId = REGISTERED_CLIENT_PREFIX + sealer.seal('client-id', sealed);
  const confidential = registration.a !== 'none';
  return {
    client_id: clientId,
    client_id_issued_at: nowSeconds,
    ...(confidential
      ? { client_secret: clientSecret(sealer, clientId), client_secret_expires_at: 0 as const }
      : {}),
    ...(registration.n ? { client_name: registration.n } : {}),
    redirect_uris: registration.r,
    grant_types: registration.g,
    response_types: ['code'],
    token_endpoint_auth_method: registration.a,
  };
}

/** A confidential client's secret: a MAC of its client_id, so it is derived again rather than stored. */
export function clientSecret(sealer: Sealer, clientId: string): string {
  return sealer.mac('client-secret', clientId);
}

/** Opens a registered client_id; undefined when it is not one of ours, was altered, or its key changed. */
export function openRegisteredClient(clientId: string, sealer: Sealer): BridgeClient | undefined {
  if (!clientId.startsWith(REGISTERED_CLIENT_PREFIX) || clientId.length > BridgeLimits.maxParameterChars)
    return undefined;
  const value = sealer.open('client-id', clientId.slice(REGISTERED_CLIENT_PREFIX.length));
  if (typeof value !== 'object' || value === null) return undefined;
  const sealed = value as SealedRegistration;
  if (!Array.isArray(sealed.r) || !AUTH_METHODS.includes(sealed.a) || !Array.isArray(sealed.g))
    return undefined;
  return {
    id: clientId,
    kind: 'registered',
    ...(sealed.n ? { name: sealed.n } : {}),
    // Registered under older, looser rules (hosts such as `x;sandbox`): such a redirect URI is no longer honoured.
    redirectUris: sealed.r.filter((uri) => redirectUriProblem(uri) === undefined),
    authMethod: sealed.a,
    grantTypes: sealed.g,
  };
}
