/**
 * The whole authorization setup on one machine, for `MCP_AUTH_MODE=oauth npm start` and the end-to-end tests:
 * one local HTTP server that routes the bridge's paths to the bridge and everything else to the MCP function
 * (as the HTTP API does when deployed), and an embedded OpenID provider as the upstream sign-in. The bridge keeps
 * its state in memory and signs with a key generated at start; `/_local/` answers the loopback administration of
 * `npm run local-user` and `npm run signout -- --local` (`auth-admin.ts`).
 */
import type { Server } from 'node:http';
import type { Logger } from '@mcp-lambda/server';
import { createLambdaHandler, silentLogger } from '@mcp-lambda/server/lambda';
import { createLocalBridge, type AuthorizationBridge, type TokenSigner } from '@mcp-lambda/bridge';
import { LOCAL_ADMIN_PREFIX, localAdmin } from './auth-admin.ts';
import { startLocalServer, type LambdaHttpHandler } from './dev-server.ts';
import type { GatewayCors } from './gateway-cors.ts';
import { startLocalOidcProvider, type LocalOidcProvider } from './oidc-provider.ts';

/** The scope the local bridge grants and the local MCP function requires. */
export const LOCAL_SCOPE = 'mcp';

export interface LocalAuthorizationOptions {
  /** Port on 127.0.0.1; 0 lets the OS choose. */
  port: number;
  /** Port of the embedded OpenID provider on 127.0.0.1. Default 0: the OS chooses. */
  providerPort?: number;
  /** API Gateway's CORS, as the HTTP API in front of the bridge and the function has it. Default: none. */
  cors?: GatewayCors;
  /** MCP endpoint path. Default `/mcp`. */
  mcpPath?: string;
  /**
   * Builds the MCP handler once the issuer and resource URLs are known (they depend on the port): e.g. set the
   * MCP_AUTH_* variables and import the function.
   */
  mcpHandler(urls: { issuer: string; resource: string; scope: string }): Promise<LambdaHttpHandler>;
  /** Let Client ID Metadata Documents live on loopback (local development and tests only). Default true. */
  allowLoopbackMetadata?: boolean;
  /** Extra CA (PEM) trusted for metadata documents (tests serving one over https on loopback). */
  metadataCa?: string;
  /** The development user's password. Default random. */
  password?: string;
  /** Where the bridge logs. Default: nowhere. */
  log?: Logger;
  /** Clock in epoch ms for the bridge (tests that expire codes). */
  now?: () => number;
}

export interface LocalAuthorization {
  /** The origin: the bridge's issuer. */
  issuer: string;
  /** The MCP endpoint URL (the resource). */
  resource: string;
  bridge: AuthorizationBridge;
  /** The bridge's signing key (tests mint deliberately wrong tokens with it). */
  signer: TokenSigner;
  upstream: LocalOidcProvider;
  /** Signs a user out everywhere at the bridge (what `npm run signout` does); returns the time, epoch seconds. */
  signOut(subject: string): Promise<number>;
  server: Server;
  close(): Promise<void>;
}

export async function startLocalAuthorization(
  options: LocalAuthorizationOptions,
): Promise<LocalAuthorization> {
  let route: LambdaHttpHandler = async () => ({ statusCode: 503, body: 'starting' });
  const local = await startLocalServer({
    handler: (event, context) => route(event, context),
    port: options.port,
    ...(options.cors ? { cors: options.cors } : {}),
  });
  const issuer = local.url;
  const resource = `${issuer}${options.mcpPath ?? '/mcp'}`;
  let upstream: LocalOidcProvider;
  try {
    upstream = await startLocalOidcProvider({
      callbackUrl: `${issuer}/oauth/callback`,
      ...(options.providerPort !== undefined ? { port: options.providerPort } : {}),
      ...(options.password ? { password: options.password } : {}),
    });
  } catch (error) {
    await local.close();
    throw error;
  }
  const { bridge, signer, signOut } = await createLocalBridge({
    issuer,
    resource,
    scopes: [LOCAL_SCOPE],
    upstream: { issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret },
    allowLoopbackMetadata: options.allowLoopbackMetadata ?? true,
    ...(options.metadataCa ? { metadataCa: options.metadataCa } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const bridgeHandler = createLambdaHandler(bridge.handle, options.log ?? silentLogger);
  const mcpHandler = await options.mcpHandler({ issuer, resource, scope: LOCAL_SCOPE });
  const bridgePaths = new Set(bridge.paths);
  route = (event, context) =>
    event.rawPath.startsWith(LOCAL_ADMIN_PREFIX)
      ? localAdmin(event, { provider: upstream, signOut })
      : (bridgePaths.has(event.rawPath) ? bridgeHandler : mcpHandler)(event, context);

  return {
    issuer,
    resource,
    bridge,
    signer,
    upstream,
    signOut,
    server: local.server,
    close: async () => {
      await local.close();
      await upstream.close();
    },
  };
}
