import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

/**
 * Signs the bridge's access tokens and publishes the public key. Asymmetric only (ES256): the MCP function
 * verifies with the published key set and never holds anything that could mint a token.
 */
export interface TokenSigner {
  readonly alg: 'ES256';
  /** A compact JWS of `claims` with header `{ alg, typ: 'at+jwt', kid }` (RFC 9068 §2.1). */
  sign(claims: JWTPayload, signal: AbortSignal): Promise<string>;
  /** The public key set for `jwks_uri`. */
  jwks(signal: AbortSignal): Promise<{ keys: JWK[] }>;
}

/** The public JWK as published: key parameters, `kid` (RFC 7638 thumbprint), `alg` and `use`. */
export async function publicJwk(jwk: JWK): Promise<JWK> {
  const { kty, crv, x, y } = jwk;
  const bare = { kty, crv, x, y } as JWK;
  return { ...bare, kid: await calculateJwkThumbprint(bare), alg: 'ES256', use: 'sig' };
}

/**
 * A signer whose key lives in this process: generated at start (tokens die with the process) for local
 * development and tests. Deployed stacks use the KMS signer.
 */
export async function createLocalSigner(): Promise<TokenSigner> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await publicJwk(await exportJWK(publicKey));
  return {
    alg: 'ES256',
    sign: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid! }).sign(privateKey),
    jwks: async () => ({ keys: [jwk] }),
  };
}
