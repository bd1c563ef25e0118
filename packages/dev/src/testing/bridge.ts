/**
 * The local authorization setup for tests: the bridge, the embedded OpenID provider and an MCP server that
 * accepts only the bridge's tokens, behind one local HTTP server (as `MCP_AUTH_MODE=oauth npm start` runs them).
 */
import { defineTool, type Logger } from '@mcp-lambda/server';
import {
  createMcpServer,
  loadOAuthAuthenticator,
  createLambdaHandler,
  silentLogger,
} from '@mcp-lambda/server/lambda';
import type { LocalAuthorization } from '../local/authorization.ts';

export const whoami = defineTool({
  name: 'whoami',
  description: 'Tells the caller who the server thinks it is.',
  handler: (_args, ctx) => ({
    subject: ctx.principal?.subject ?? null,
    clientId: ctx.principal?.clientId ?? null,
    scopes: [...(ctx.principal?.scopes ?? [])],
  }),
});

export interface BridgeStack extends LocalAuthorization {
  /** The development user's password. */
  password: string;
}

export async function startBridgeStack(
  options: { metadataCa?: string; now?: () => number; log?: Logger } = {},
): Promise<BridgeStack> {
  const password = 'correct horse battery staple';
  const createOAuthAuthenticator = await loadOAuthAuthenticator();
  // The bridge and the OpenID provider load when one starts, not with the helpers beside this one.
  const { startLocalAuthorization } = await import('../local/authorization.ts');
  const stack = await startLocalAuthorization({
    port: 0,
    password,
    ...(options.metadataCa ? { metadataCa: options.metadataCa } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.log ? { log: options.log } : {}),
    mcpHandler: async ({ issuer, resource, scope }) =>
      createLambdaHandler(
        createMcpServer({
          info: { name: 'bridge-e2e', version: '1.0.0' },
          tools: [whoami],
          auth: createOAuthAuthenticator({ issuer, resource, requiredScopes: [scope], resourceName: 'E2E' }),
          http: { path: '/mcp', allowedOrigins: [] },
        }).handle,
        silentLogger,
      ),
  });
  return { ...stack, password };
}
