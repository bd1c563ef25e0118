import { errors, jwtVerify, type FlattenedJWSInput, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { AuthRejection, AuthRequest, Authentication, Authenticator } from './authenticator.ts';
import { Defaults } from '../limits.ts';
import { readBearer } from './bearer.ts';
import { claimsProblem, isPlausible, type ClaimRules } from './claims.ts';
import { bearerChallenge } from './challenge.ts';
import { discoverJwksUri } from './discovery.ts';
import { KeysUnavailableError, RemoteKeySet, type KeySetOptions } from './jwks.ts';
import {
  buildProtectedResourceMetadata,
  metadataPaths,
  metadataUrl,
  type ProtectedResourceMetadata,
} from './metadata.ts';
import type { Principal } from '../contracts/principal.ts';
import { principalKeys } from './principal.ts';
import { grantedScopes, isScopeToken, missingScopes } from './scopes.ts';
import { isSecureUrl } from './urls.ts';

/** Asymmetric JWS algorithms: `none` and the HMAC family (HS*) can never be configured. */
const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** The default algorithm pin: what mainstream issuers (Cognito, Auth0, Okta, Entra ID, Keycloak) sign with. */
const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA', 'Ed25519'];

/** Settings of the `oauth` authenticator; see docs/authorization.md "The resource server". */
export interface OAuthOptions {
  /** Issuer identifier, exactly as in the tokens' `iss` and the issuer's metadata. */
  issuer: string;
  /** This server's resource URL (the MCP endpoint's absolute URL): the RFC 8707 audience and RFC 9728 `resource`. */
  resource: string;
  /** Audiences accepted in `aud`. Default: the resource URL only. */
  audiences?: readonly string[];
  /** Scopes every request needs. Default none. */
  requiredScopes?: readonly string[];
  /** Scopes listed in the metadata's `scopes_supported`. Default: the required scopes. */
  scopesSupported?: readonly string[];
  /** Key set URL. Default: the issuer's `jwks_uri`, discovered from its metadata on the first token. */
  jwksUri?: string;
  /** Accepted signature algorithms (a subset of `ASYMMETRIC_ALGORITHMS`). Default `DEFAULT_ALGORITHMS`. */
  algorithms?: readonly string[];
  /** Allowed clock difference with the issuer for `exp`/`nbf`, in seconds. Default 30. */
  clockToleranceSeconds?: number;
  /** Longest a token may still be valid (its `exp` from now), in seconds; longer ones are refused. Default a day. */
  maxTokenLifetimeSeconds?: number;
  /** `resource_name` in the metadata document. */
  resourceName?: string;
  /**
   * The metadata document's URL, for the challenges' `resource_metadata`, when its RFC 9728 location (the host's
   * root) cannot reach this server: an API URL whose first segment is a stage, `https://…/prod/mcp`, serves it at
   * `https://…/prod/.well-known/oauth-protected-resource/prod/mcp`. Default: the RFC 9728 location.
   */
  metadataUrl?: string;
  /** Key cache tuning, a fetch implementation and a clock (tests). */
  keys?: Omit<KeySetOptions, 'jwksUri'>;
}

/** Tokens longer than this are refused unread (real access tokens are a few KB). */
const MAX_TOKEN_LENGTH = 16 * 1024;

/** Why a verified-looking token was refused, in words a developer can act on (no claim values echoed). */
function whyRefused(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing') return `The access token lacks the "${error.claim}" claim`;
    switch (error.claim) {
      case 'nbf':
        return 'The access token is not valid yet';
      case 'iss':
        return 'The access token was not issued by the authorization server this resource trusts';
      case 'aud':
        return 'The access token was not issued for this resource (audience mismatch)';
      default:
        return `The access token's "${error.claim}" claim is invalid`;
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return 'The access token is signed with an algorithm not accepted here';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The access token signature is invalid';
  if (error instanceof errors.JWKSNoMatchingKey) return 'The access token is signed with an unknown key';
  return 'The access token is malformed';
}

/** The checked settings of one authenticator. */
interface Settings extends ClaimRules {
  resource: string;
  audiences: string[];
  algorithms: string[];
  requiredScopes: string[];
  scopesSupported: string[];
}

/** Checks the options as configuration (throws with the setting's name); the authenticator trusts them after. */
function checkOptions(options: OAuthOptions): Settings {
  const { issuer, resource } = options;
  if (!isSecureUrl(issuer))
    throw new Error(`Authorization: issuer ${JSON.stringify(issuer)} must be an https URL`);
  if (!isSecureUrl(resource))
    throw new Error(
      `Authorization: resource ${JSON.stringify(resource)} must be an https URL without query or fragment`,
    );
  if (options.jwksUri !== undefined && !isSecureUrl(options.jwksUri))
    throw new Error(`Authorization: JWKS URL ${JSON.stringify(options.jwksUri)} must be an https URL`);
  if (options.metadataUrl !== undefined && !isSecureUrl(options.metadataUrl))
    throw new Error(
      `Authorization: metadata URL ${JSON.stringify(options.metadataUrl)} must be an https URL`,
    );
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  const refused = algorithms.filter((a) => !(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(a));
  if (algorithms.length === 0 || refused.length)
    throw new Error(
      `Authorization: algorithms must be asymmetric JWS algorithms (${ASYMMETRIC_ALGORITHMS.join(', ')}); refused: ${refused.join(', ') || 'none given'}`,
    );
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const scopesSupported = [...new Set([...requiredScopes, ...(options.scopesSupported ?? [])])];
  const maxLifetimeSeconds = options.maxTokenLifetimeSeconds ?? Defaults.maxTokenLifetimeSeconds;
  if (!Number.isSafeInteger(maxLifetimeSeconds) || maxLifetimeSeconds < 60)
    throw new Error(
      'Authorization: the maximum token lifetime must be a whole number of seconds, at least 60',
    );
  const badScope = scopesSupported.find((s) => !isScopeToken(s));
  if (badScope !== undefined)
    throw new Error(`Authorization: ${JSON.stringify(badScope)} is not a valid scope`);
  return {
    issuer,
    resource,
    audiences: [...(options.audiences ?? [resource])],
    algorithms,
    requiredScopes,
    scopesSupported,
    clockTolerance: options.clockToleranceSeconds ?? 30,
    maxLifetimeSeconds,
  };
}

/** The caller a verified token describes, or why the token does not describe one. */
function principalOf(payload: JWTPayload, rules: ClaimRules, nowSeconds: number): Principal | string {
  const { issuer } = rules;
  if (typeof payload.sub !== 'string' || payload.sub === '' || typeof payload.exp !== 'number')
    return 'The access token lacks a subject or an expiry';
  const problem = claimsProblem(payload, rules, nowSeconds);
  if (problem) return problem;
  const clientId =
    typeof payload.client_id === 'string'
      ? payload.client_id
      : typeof payload.azp === 'string'
        ? payload.azp
        : undefined;
  return {
    subject: payload.sub,
    issuer,
    ...(clientId !== undefined ? { clientId } : {}),
    scopes: grantedScopes(payload),
    expiresAt: payload.exp,
    ...principalKeys(issuer, payload.sub, clientId),
  };
}

/**
 * The OAuth 2.1 resource-server side of MCP authorization: validates JWT access tokens locally with jose (signature
 * against the issuer's published keys, issuer, audience, lifetime, pinned algorithms), applies the required
 * scopes, and publishes the RFC 9728 metadata that lets clients find the authorization server.
 */
class OAuthAuthenticator implements Authenticator {
  private readonly metadata: ProtectedResourceMetadata;
  private readonly paths: Set<string>;
  private readonly resourceMetadata: string;
  private readonly keys: RemoteKeySet;
  private readonly now: () => number;

  constructor(
    private readonly settings: Settings,
    options: OAuthOptions,
  ) {
    const { issuer, resource } = settings;
    this.metadata = buildProtectedResourceMetadata({
      resource,
      authorizationServers: [issuer],
      scopesSupported: settings.scopesSupported,
      ...(options.resourceName ? { resourceName: options.resourceName } : {}),
    });
    this.paths = new Set(metadataPaths(resource));
    this.resourceMetadata = options.metadataUrl ?? metadataUrl(resource);
    this.now = options.keys?.now ?? Date.now;
    this.keys = new RemoteKeySet({
      // Only a token that could pass every signature-independent check may make the cache look for a new key.
      mayRefetchFor: (token) => isPlausible(token, settings, this.now() / 1000),
      ...options.keys,
      jwksUri: options.jwksUri ?? (() => discoverJwksUri(issuer, options.keys ?? {})),
    });
  }

  async authenticate(request: AuthRequest): Promise<Authentication> {
    const credential = readBearer(request.headers.authorization);
    if (credential.kind === 'absent') return { ok: false, rejection: this.unauthorized() };
    if (credential.kind === 'malformed' || credential.token.length > MAX_TOKEN_LENGTH)
      return { ok: false, rejection: this.unauthorized('The access token is malformed') };
    const { issuer, audiences, algorithms, clockTolerance, requiredScopes } = this.settings;
    let payload: JWTPayload;
    try {
      const keys = (header: JWTHeaderParameters, token: FlattenedJWSInput) =>
        this.keys.resolve(header, token, request.deadline);
      ({ payload } = await jwtVerify(credential.token, keys, {
        issuer,
        audience: audiences,
        algorithms,
        clockTolerance,
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(this.now()),
      }));
    } catch (error) {
      return { ok: false, rejection: this.refusal(error) };
    }
    const principal = principalOf(payload, this.settings, this.now() / 1000);
    if (typeof principal === 'string') return { ok: false, rejection: this.unauthorized(principal) };
    if (missingScopes(principal.scopes, requiredScopes).length)
      return { ok: false, rejection: this.scopeRefusal(requiredScopes) };
    return { ok: true, principal };
  }

  insufficientScope(required: readonly string[]): AuthRejection {
    return this.scopeRefusal([...new Set([...this.settings.requiredScopes, ...required])]);
  }

  metadataFor(path: string): ProtectedResourceMetadata | undefined {
    return this.paths.has(path) ? this.metadata : undefined;
  }

  /** 503 when the issuer's keys cannot be fetched (not the client's fault), else 401 saying why. */
  private refusal(error: unknown): AuthRejection {
    if (!(error instanceof KeysUnavailableError)) return this.unauthorized(whyRefused(error));
    return {
      status: 503,
      headers: { 'retry-after': '5' },
      message: 'Service Unavailable: access tokens cannot be verified right now; retry shortly',
      cause: error.cause instanceof Error ? error.cause.message : String(error.cause),
    };
  }

  private unauthorized(error?: string): AuthRejection {
    return {
      status: 401,
      headers: {
        'www-authenticate': bearerChallenge({
          ...(error ? { error: 'invalid_token', description: error } : {}),
          scopes: this.settings.requiredScopes,
          resourceMetadata: this.resourceMetadata,
        }),
      },
      message: error
        ? `Unauthorized: ${error.charAt(0).toLowerCase()}${error.slice(1)}`
        : 'Unauthorized: this server needs a Bearer access token',
    };
  }

  private scopeRefusal(required: readonly string[]): AuthRejection {
    return {
      status: 403,
      headers: {
        'www-authenticate': bearerChallenge({
          error: 'insufficient_scope',
          description: `This request needs the scope(s): ${required.join(' ')}`,
          scopes: required,
          resourceMetadata: this.resourceMetadata,
        }),
      },
      message: `Forbidden: this request needs the scope(s) ${required.join(', ')}`,
    };
  }
}

/** Builds the `oauth` authenticator; throws on invalid settings (see docs/authorization.md). */
export function createOAuthAuthenticator(options: OAuthOptions): Authenticator {
  return new OAuthAuthenticator(checkOptions(options), options);
}
