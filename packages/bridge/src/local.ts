import { randomBytes } from 'node:crypto';
import { BridgeLimits } from './limits.ts';
import type { Logger } from '@mcp-lambda/server';
import { silentLogger } from '@mcp-lambda/server/lambda';
import { createAuthorizationBridge, type AuthorizationBridge } from './bridge.ts';
import { createClientDirectory } from './clients.ts';
import { createCookieJar } from './cookies.ts';
import { createMemoryStore } from './memory-store.ts';
import { createSealer } from './seal.ts';
import { createLocalSigner, type TokenSigner } from './signer.ts';
import { signOutEverywhere } from './signout.ts';
import { createUpstream } from './upstream.ts';

/** Settings of a bridge that lives in one process (`npm start`, tests). */
export interface LocalBridgeOptions {
  /** The origin the bridge is served on (http on loopback). */
  issuer: string;
  /** The MCP endpoint URL. */
  resource: string;
  /** The resource scopes it grants. */
  scopes: readonly string[];
  /** The upstream OpenID provider and the bridge's client there. */
  upstream: { issuer: string; clientId: string; clientSecret: string };
  /** Let metadata documents live on loopback. Default false. */
  allowLoopbackMetadata?: boolean;
  /** Extra CA (PEM) trusted for metadata documents (tests). */
  metadataCa?: string;
  /** Epoch ms (tests that expire codes). */
  now?: () => number;
  log?: Logger;
}

/**
 * The bridge with in-process parts: a random sealing key, a signing key generated now and the in-memory store,
 * so everything it issued is forgotten when the process stops. Deployed stacks use `createDeployedBridge`.
 */
export async function createLocalBridge(options: LocalBridgeOptions): Promise<{
  bridge: AuthorizationBridge;
  signer: TokenSigner;
  /** Signs a user out everywhere (the local `npm run signout`); returns the sign-out time, epoch seconds. */
  signOut(subject: string): Promise<number>;
}> {
  const now = options.now ?? Date.now;
  const seconds = () => Math.floor(now() / 1000);
  const sealer = createSealer(randomBytes(32), now);
  const signer = await createLocalSigner();
  const store = createMemoryStore(seconds);
  const bridge = createAuthorizationBridge({
    issuer: options.issuer,
    resource: options.resource,
    resourceName: 'the local MCP server',
    scopes: options.scopes,
    sealer,
    signer,
    store,
    upstream: createUpstream({
      ...options.upstream,
      scopes: ['openid', 'email'],
      timeoutMs: BridgeLimits.outboundTimeoutMs,
    }),
    clients: createClientDirectory({
      sealer,
      allowLoopbackMetadata: options.allowLoopbackMetadata ?? false,
      ...(options.metadataCa ? { metadataCa: options.metadataCa } : {}),
      now,
    }),
    cookies: createCookieJar(new URL(options.issuer).protocol === 'https:'),
    now: seconds,
    log: options.log ?? silentLogger,
  });
  return { bridge, signer, signOut: (subject) => signOutEverywhere(store, subject, seconds()) };
}
