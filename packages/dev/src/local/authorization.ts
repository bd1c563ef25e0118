/**
 * The whole authorization setup on one machine, for `MCP_AUTH_MODE=oauth npm start` and the end-to-end tests:
 * one local HTTP server that routes the bridge's paths to the bridge and everything else to the MCP function, and
 * an embedded OpenID provider as the upstream sign-in. In front of the HTTP API (`mcpHandler`) the routing is the
 * HTTP API's; in front of the streaming REST API (`mcpStreamingHandler`) it is the REST API's behind a custom
 * domain: the bridge's methods buffered beside the streamed MCP path, on one origin. The bridge keeps its state in
 * memory and signs with a key generated at start; `/_local/` answers the loopback administration of
 * `npm run local-user` and `npm run signout -- --local` (`auth-admin.ts`).
 */
import type { Server } from 'node:http';
import type { Logger } from '@mcp-lambda/server';
import { silentLogger, type StreamingEvent, type StreamingHandler } from '@mcp-lambda/server/lambda';
import { createLocalBridge, type AuthorizationBridge, type TokenSigner } from '@mcp-lambda/bridge';
import { httpApiRoutes, restApiRoutes } from './authorization-routes.ts';
import { startLocalServer, type LambdaHttpHandler } from './dev-server.ts';
import type { GatewayCors } from './gateway-cors.ts';
import { startLocalOidcProvider, type LocalOidcProvider } from './oidc-provider.ts';

/** The scope the local bridge grants and the local MCP function requires. */
export const LOCAL_SCOPE = 'mcp';

/** The URLs the MCP function is configured with once the server listens (they depend on the port). */
export interface LocalAuthorizationUrls {
  issuer: string;
  resource: string;
  scope: string;
}

/** The MCP function behind the bridge, and so the API stood in for. */
export type LocalMcpFunction =
  /** The HTTP API: builds the buffered handler, e.g. sets the MCP_AUTH_* variables and imports the function. */
  | { mcpHandler(urls: LocalAuthorizationUrls): Promise<LambdaHttpHandler> }
  /** The streaming REST API: builds the streaming handler likewise. */
  | { mcpStreamingHandler(urls: LocalAuthorizationUrls): Promise<StreamingHandler<StreamingEvent>> };

export type LocalAuthorizationOptions = LocalMcpFunction & {
  /** Port on 127.0.0.1; 0 lets the OS choose. */
  port: number;
  /** Port of the embedded OpenID provider on 127.0.0.1. Default 0: the OS chooses. */
  providerPort?: number;
  /** API Gateway's CORS, as the API in front of the bridge and the function has it. Default: none. */
  cors?: GatewayCors;
  /** MCP endpoint path. Default `/mcp`. */
  mcpPath?: string;
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
};

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
  const http = 'mcpHandler' in options ? httpApiRoutes() : undefined;
  const rest = 'mcpStreamingHandler' in options ? restApiRoutes() : undefined;
  const local = await startLocalServer({
    ...(http ?? rest)!.handler,
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
  const targets = { bridge, admin: { provider: upstream, signOut }, log: options.log ?? silentLogger };
  const urls = { issuer, resource, scope: LOCAL_SCOPE };
  if ('mcpHandler' in options) http!.ready(targets, await options.mcpHandler(urls));
  else rest!.ready(targets, await options.mcpStreamingHandler(urls));

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
