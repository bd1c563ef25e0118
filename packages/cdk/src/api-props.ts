import type * as lambda from 'aws-cdk-lib/aws-lambda';

/** What both kinds of MCP API take: the function, the path, the stage's throttle and browser access. */
export interface McpApiProps {
  /** The MCP function every route of the endpoint invokes (a response-streaming handler behind the REST API). Required. */
  readonly handler: lambda.IFunction;
  /**
   * Path of the MCP endpoint (MCP_PATH).
   * @default '/mcp' (`Defaults.mcpPath` in packages/server/src/limits.ts)
   */
  readonly path?: string;
  /**
   * Steady-state request rate limit of the stage, requests per second.
   * @default 50 (`Defaults.throttleRateLimit`)
   */
  readonly throttleRateLimit?: number;
  /**
   * Burst limit of the stage, requests.
   * @default 100 (`Defaults.throttleBurstLimit`)
   */
  readonly throttleBurstLimit?: number;
  /**
   * Browser origins allowed to call the endpoint (MCP_ALLOWED_ORIGINS), exact (`https://app.example.com`) or `*`:
   * API Gateway answers their CORS preflights; the function still refuses any other Origin with 403.
   * @default - none: no CORS preflight (non-browser clients need none)
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Paths of the OAuth protected resource metadata (RFC 9728) as the function sees them (without a stage), routed
   * to the MCP function for GET when the endpoint requires tokens, e.g. `/.well-known/oauth-protected-resource/mcp`.
   * @default - none (an endpoint without authorization)
   */
  readonly metadataPaths?: readonly string[];
  /**
   * Extra request headers browsers may send, beyond `MCP_CORS_HEADERS` (e.g. `mcp-param-region`).
   * @default - none
   */
  readonly extraCorsHeaders?: readonly string[];
}
