import type { AuthConfig } from '../config.ts';
import { loadOAuthAuthenticator } from '../auth/oauth-loader.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { ToolDefinition } from '../tools/define.ts';
import type { ToolCallObserver } from '../tools/observer.ts';
import type { FunctionStart } from './start.ts';

/**
 * Authorization: with MCP_AUTH_MODE=oauth every request needs an access token for this resource; the issuer's keys
 * are fetched on the first token and cached for the container's life (docs/authorization.md). The verification code
 * loads only in that mode, at cold start.
 */
export async function authenticatorFor(
  auth: AuthConfig,
  resourceName: string,
  tools: readonly ToolDefinition[],
): Promise<Authenticator | undefined> {
  if (auth.mode !== 'oauth') return undefined;
  return (await loadOAuthAuthenticator())({
    issuer: auth.issuer,
    resource: auth.resource,
    audiences: auth.audiences,
    requiredScopes: auth.requiredScopes,
    scopesSupported: tools.flatMap((t) => t.scopes ?? []),
    resourceName,
    ...(auth.jwksUrl ? { jwksUri: auth.jwksUrl } : {}),
    ...(auth.algorithms ? { algorithms: auth.algorithms } : {}),
    maxTokenLifetimeSeconds: auth.maxTokenLifetimeSeconds,
    ...(auth.metadataUrl ? { metadataUrl: auth.metadataUrl } : {}),
  });
}

/**
 * Who is told about each tool call: per-tool metrics (MCP_TOOL_METRICS, on in the deployed stack: one
 * embedded-metric-format line per call, through a chunk with Powertools Metrics imported at cold start only when
 * they are on). Traces record each call in its own span (`gen_ai.tool.name`, `error.type`).
 */
export async function toolCallObserver({
  config,
  logger,
}: FunctionStart): Promise<ToolCallObserver | undefined> {
  if (!config.toolMetrics) return undefined;
  return (await import('./tool-metrics.ts')).toolMetricsObserver(
    config.toolMetrics,
    config.serverName,
    logger,
  );
}
