import { errors, jwtVerify } from 'jose';
import { RemoteKeySet } from '@mcp-lambda/server/auth';
import { fetchJsonObject } from '@mcp-lambda/server/auth';
import { isSecureUrl } from '@mcp-lambda/server/auth';
import { callTokenEndpoint, providerTrouble, userRefused } from './upstream-token.ts';

/**
 * The upstream OpenID provider that signs users in (Cognito managed login in the deployed stack, an embedded
 * provider locally): standard authorization code flow with PKCE and a nonce, as a confidential client with one
 * fixed callback. The ID token is verified with jose (signature against the provider's published keys, `iss`,
 * `aud`, `exp`, `nonce`); only its `sub` is used. The provider's refresh token is kept (sealed, with the bridge's
 * refresh family) so that every refresh of the bridge's tokens asks the provider again whether the user may go on.
 */

export interface UpstreamOptions {
  /** The provider's issuer identifier; its discovery document is read from `/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** The client secret, or a function that reads it (from Secrets Manager) once. */
  clientSecret: string | ((signal: AbortSignal) => Promise<string>);
  /** Scopes asked of the provider. */
  scopes: readonly string[];
  /** Time limit of one call when the caller's signal allows more. */
  timeoutMs: number;
}

/** The subset of the discovery document used here. */
interface ProviderMetadata {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  issParameter: boolean;
}

type UpstreamIdentity =
  | { ok: true; subject: string; refreshToken: string | undefined }
  | { ok: false; reason: string; temporary: boolean };

/** The provider's answer to a refresh: the token to keep (its new one if it rotated), or why not. */
type UpstreamRefresh = { ok: true; refreshToken: string } | { ok: false; reason: string; temporary: boolean };

export interface Upstream {
  /** The provider's authorization endpoint (its origin goes into the consent page's form-action). */
  authorizationEndpoint(signal: AbortSignal): Promise<string>;
  /** The URL the browser is sent to for sign-in. */
  authorizationUrl(
    params: { redirectUri: string; state: string; nonce: string; codeChallenge: string },
    signal: AbortSignal,
  ): Promise<string>;
  /** Exchanges the code from the callback and verifies the ID token; never throws. */
  redeem(
    params: {
      code: string;
      redirectUri: string;
      codeVerifier: string;
      nonce: string;
      iss: string | undefined;
    },
    signal: AbortSignal,
  ): Promise<UpstreamIdentity>;
  /**
   * Asks the provider whether `subject` may go on (the refresh_token grant; OpenID Connect Core §12); never
   * throws. Refused when the provider no longer accepts the user (disabled, deleted, signed out there); temporary
   * when it cannot be reached or answers with anything else.
   */
  refresh(params: { refreshToken: string; subject: string }, signal: AbortSignal): Promise<UpstreamRefresh>;
}

const ID_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];

/** Reads the provider's discovery document and keeps what the flow needs (all URLs https, or loopback http). */
async function discover(options: UpstreamOptions, signal: AbortSignal): Promise<ProviderMetadata> {
  const doc = await fetchJsonObject(`${options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, {
    fetch: (u, init) => fetch(u, { ...init, signal: AbortSignal.any([init.signal, signal]) }),
    timeoutMs: options.timeoutMs,
  });
  if (doc.issuer !== options.issuer) throw new Error('The upstream discovery document names another issuer');
  for (const name of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const)
    if (typeof doc[name] !== 'string' || !isSecureUrl(doc[name] as string))
      throw new Error(`The upstream discovery document has no usable ${name}`);
  return {
    authorization_endpoint: doc.authorization_endpoint as string,
    token_endpoint: doc.token_endpoint as string,
    jwks_uri: doc.jwks_uri as string,
    issParameter: doc.authorization_response_iss_parameter_supported === true,
  };
}

/**
 * Verifies an ID token (signature, iss, aud, azp, exp) and returns its subject: after sign-in its nonce must be
 * ours; after a refresh its subject must be the family's (OpenID Connect Core §12.2).
 */
async function verifyIdToken(
  options: UpstreamOptions,
  keys: RemoteKeySet,
  idToken: string,
  expected: { nonce: string } | { subject: string },
): Promise<{ ok: true; subject: string } | { ok: false; reason: string; temporary: boolean }> {
  try {
    const { payload } = await jwtVerify(idToken, keys.resolve, {
      issuer: options.issuer,
      audience: options.clientId,
      algorithms: ID_TOKEN_ALGORITHMS,
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: 30,
    });
    if ('nonce' in expected && payload.nonce !== expected.nonce)
      return { ok: false, reason: 'the ID token nonce does not match', temporary: false };
    if ('subject' in expected && payload.sub !== expected.subject)
      return { ok: false, reason: 'the refreshed ID token names another user', temporary: false };
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== options.clientId)
      return { ok: false, reason: 'the ID token was issued to another client', temporary: false };
    if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 255)
      return { ok: false, reason: 'the ID token has no usable subject', temporary: false };
    return { ok: true, subject: payload.sub };
  } catch (error) {
    // A key id missing from the key set in hand (the provider rotated its key, and the set could not be read again
    // yet) or a set that could not be read says nothing about the user: temporary, never a sign-out.
    const keyMissing = error instanceof errors.JWKSNoMatchingKey;
    return {
      ok: false,
      reason: keyMissing
        ? 'the ID token names a key the provider has not published'
        : 'the ID token could not be verified',
      temporary: keyMissing || !(error instanceof errors.JOSEError),
    };
  }
}

/** A refresh token worth keeping: a non-empty string of sane length (what we seal and store). */
const usableToken = (value: unknown) =>
  typeof value === 'string' && value.length > 0 && value.length <= 4 * 1024 ? value : undefined;

/** What a token endpoint call needs, once discovery and the secret were read. */
interface Ready {
  provider: ProviderMetadata;
  clientSecret: string;
  keys: RemoteKeySet;
}

const UNREACHABLE = { ok: false, reason: 'the sign-in provider is unreachable', temporary: true } as const;

/** The code exchange after sign-in: the ID token verified against our nonce, the refresh token kept. */
async function redeemCode(
  options: UpstreamOptions,
  ready: Ready | undefined,
  params: Parameters<Upstream['redeem']>[0],
  signal: AbortSignal,
): Promise<UpstreamIdentity> {
  if (!ready) return UNREACHABLE;
  // RFC 9207: when the provider sends `iss`, it must be this provider (mix-up defence).
  if ((ready.provider.issParameter || params.iss !== undefined) && params.iss !== options.issuer)
    return { ok: false, reason: 'the sign-in response came from another issuer', temporary: false };
  const call = await callTokenEndpoint(
    options,
    ready.provider.token_endpoint,
    ready.clientSecret,
    {
      grant_type: 'authorization_code',
      code: params.code,
      redirect_uri: params.redirectUri,
      code_verifier: params.codeVerifier,
    },
    signal,
  );
  if (!call.ok) {
    if (call.kind === 'unreachable')
      return { ok: false, reason: 'the sign-in provider token endpoint is unreachable', temporary: true };
    // A provider failing or throttling said nothing about the code: the client may start the sign-in again.
    return {
      ok: false,
      reason: `the sign-in provider refused the code (${call.status})`,
      temporary: providerTrouble(call),
    };
  }
  if (typeof call.body.id_token !== 'string')
    return { ok: false, reason: 'the sign-in provider returned no ID token', temporary: false };
  const identity = await verifyIdToken(options, ready.keys, call.body.id_token, { nonce: params.nonce });
  if (!identity.ok) return identity;
  return { ok: true, subject: identity.subject, refreshToken: usableToken(call.body.refresh_token) };
}

/** The refresh_token grant that asks whether the user may go on (a refreshed ID token must name them). */
async function refreshUser(
  options: UpstreamOptions,
  ready: Ready | undefined,
  params: Parameters<Upstream['refresh']>[0],
  signal: AbortSignal,
): Promise<UpstreamRefresh> {
  if (!ready) return UNREACHABLE;
  const call = await callTokenEndpoint(
    options,
    ready.provider.token_endpoint,
    ready.clientSecret,
    { grant_type: 'refresh_token', refresh_token: params.refreshToken },
    signal,
  );
  if (!call.ok)
    return userRefused(call)
      ? { ok: false, reason: 'the sign-in provider no longer accepts this user', temporary: false }
      : { ok: false, reason: 'the sign-in provider could not confirm the user', temporary: true };
  if (typeof call.body.id_token === 'string') {
    const checked = await verifyIdToken(options, ready.keys, call.body.id_token, { subject: params.subject });
    if (!checked.ok) return checked;
  }
  return { ok: true, refreshToken: usableToken(call.body.refresh_token) ?? params.refreshToken };
}

export function createUpstream(options: UpstreamOptions): Upstream {
  if (!isSecureUrl(options.issuer))
    throw new Error(`Upstream issuer ${JSON.stringify(options.issuer)} must be an https URL`);
  let metadata: Promise<ProviderMetadata> | undefined;
  let secret: Promise<string> | undefined;
  let keys: RemoteKeySet | undefined;
  // Discovery and the secret are read once per container; a failure is forgotten so the next request retries.
  const meta = (signal: AbortSignal) =>
    (metadata ??= discover(options, signal).catch((error: unknown) => {
      metadata = undefined;
      throw error;
    }));
  const readSecret = (signal: AbortSignal) =>
    typeof options.clientSecret === 'string'
      ? Promise.resolve(options.clientSecret)
      : (secret ??= options.clientSecret(signal).catch((error: unknown) => {
          secret = undefined;
          throw error;
        }));

  /** Discovery, the client secret and the key set, or undefined when they cannot be had now. */
  const prepare = async (signal: AbortSignal): Promise<Ready | undefined> => {
    try {
      const provider = await meta(signal);
      const clientSecret = await readSecret(signal);
      keys ??= new RemoteKeySet({ jwksUri: provider.jwks_uri, timeoutMs: options.timeoutMs });
      return { provider, clientSecret, keys };
    } catch {
      return undefined;
    }
  };

  return {
    authorizationEndpoint: async (signal) => (await meta(signal)).authorization_endpoint,

    async authorizationUrl(params, signal) {
      const url = new URL((await meta(signal)).authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: options.clientId,
        redirect_uri: params.redirectUri,
        scope: options.scopes.join(' '),
        state: params.state,
        nonce: params.nonce,
        code_challenge: params.codeChallenge,
        code_challenge_method: 'S256',
      }).toString();
      return url.href;
    },

    redeem: async (params, signal) => redeemCode(options, await prepare(signal), params, signal),
    refresh: async (params, signal) => refreshUser(options, await prepare(signal), params, signal),
  };
}
