/**
 * A test authorization server: signing keys generated with jose in the test process, its metadata and key set
 * served on 127.0.0.1 (port chosen by the OS), and helpers that mint good and deliberately bad access tokens.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CryptoKey, JWK, JWTPayload } from 'jose';

/** jose, loaded by the issuer that needs it: a test that only imports the helpers beside it never pays for it. */
type Jose = typeof import('jose');

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  spki: string;
}

async function newKey(jose: Jose, kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await jose.generateKeyPair('RS256');
  const publicJwk = { ...(await jose.exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicJwk, spki: await jose.exportSPKI(publicKey) };
}

/** How a token should deviate from a good one. */
export interface TokenOptions {
  /** Key id in the header (default: the current key's). */
  kid?: string;
  /** Sign with a key the issuer never published, under the current kid (a forged signature). */
  foreignKey?: boolean;
  /** Claims to leave out of the defaults (`exp`, `sub`, `aud`, …). */
  omit?: readonly string[];
}

/** A running test issuer. */
export interface TestIssuer {
  /** The issuer identifier (`iss`), e.g. http://127.0.0.1:PORT */
  issuer: string;
  jwksUri: string;
  /** Requests served so far, by document. */
  hits: { jwks: number; metadata: number };
  /** A signed RS256 access token: defaults (iss, aud, sub, iat, exp in 5 minutes, scope) overridden by `claims`. */
  token(claims?: JWTPayload & Record<string, unknown>, options?: TokenOptions): Promise<string>;
  /** An unsecured token (`alg: none`) with the default claims. */
  unsecured(claims?: JWTPayload): string;
  /** An HS256 token whose "secret" is the issuer's public key (the algorithm-confusion attack). */
  hmacWithPublicKey(claims?: JWTPayload): Promise<string>;
  /** Publishes a new signing key (new kid) and signs with it from now on; the old key is dropped. */
  rotate(): Promise<void>;
  /** Makes the key set answer 503 (false) or serve again (true). */
  setAvailable(available: boolean): void;
  close(): Promise<void>;
}

/** What the issuer's documents show at the moment they are asked for. */
interface Published {
  hits: TestIssuer['hits'];
  available(): boolean;
  publicJwk(): JWK;
}

/** Serves the issuer's metadata and key set on 127.0.0.1 (port chosen by the OS); resolves to its identifier. */
async function serveDocuments(published: Published): Promise<{ issuer: string; server: Server }> {
  const { hits } = published;
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/jwks.json') {
      hits.jwks += 1;
      if (!published.available()) return send(503, { error: 'unavailable' });
      return send(200, { keys: [published.publicJwk()] });
    }
    if (req.url === '/.well-known/oauth-authorization-server') {
      hits.metadata += 1;
      return send(200, {
        issuer,
        jwks_uri: `${issuer}/jwks.json`,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    return send(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  return { issuer, server };
}

/** Starts a test issuer; `audience` is the default `aud` of its tokens (the resource URL under test). */
export async function startIssuer(options: { audience: string; scope?: string }): Promise<TestIssuer> {
  const jose = await import('jose');
  let generation = 1;
  let current = await newKey(jose, `key-${generation}`);
  const foreign = await newKey(jose, 'foreign');
  let available = true;
  const hits = { jwks: 0, metadata: 0 };
  const { issuer, server } = await serveDocuments({
    hits,
    available: () => available,
    publicJwk: () => current.publicJwk,
  });

  const defaults = (): JWTPayload & Record<string, unknown> => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: issuer,
      aud: options.audience,
      sub: 'user-1',
      client_id: 'test-client',
      iat: now,
      exp: now + 300,
      scope: options.scope ?? 'mcp',
    };
  };
  const payloadOf = (claims: JWTPayload = {}, omit: readonly string[] = []) => {
    const payload: Record<string, unknown> = { ...defaults(), ...claims };
    for (const name of omit) delete payload[name];
    return payload;
  };

  return {
    issuer,
    jwksUri: `${issuer}/jwks.json`,
    hits,
    async token(claims = {}, tokenOptions = {}) {
      const key = tokenOptions.foreignKey ? foreign : current;
      return new jose.SignJWT(payloadOf(claims, tokenOptions.omit))
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: tokenOptions.kid ?? current.kid })
        .sign(key.privateKey);
    },
    unsecured(claims = {}) {
      return new jose.UnsecuredJWT(payloadOf(claims)).encode();
    },
    hmacWithPublicKey(claims = {}) {
      return new jose.SignJWT(payloadOf(claims))
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: current.kid })
        .sign(new TextEncoder().encode(current.spki));
    },
    async rotate() {
      generation += 1;
      current = await newKey(jose, `key-${generation}`);
    },
    setAvailable(value) {
      available = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
