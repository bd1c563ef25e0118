/**
 * Baseline: SDK 1.x (`@modelcontextprotocol/sdk`) in its documented stateless mode: a fresh `McpServer` and a
 * Streamable HTTP transport with `sessionIdGenerator: undefined` per request, JSON responses enabled, behind the
 * minimal API Gateway adapter. The web-standard transport is the core the node `StreamableHTTPServerTransport`
 * wraps, so the adapter needs no fake node request and response objects.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { baselineTools, INSTRUCTIONS } from './tools.ts';
import { toLambdaResult, toWebRequest } from './web-adapter.ts';

function buildServer(): McpServer {
  const server = new McpServer(
    { name: 'mcp-lambda-template', version: '0.1.0', title: 'MCP on AWS Lambda' },
    { instructions: INSTRUCTIONS },
  );
  for (const tool of baselineTools) {
    const config = {
      ...(tool.title ? { title: tool.title } : {}),
      description: tool.description,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    };
    if (tool.inputSchema) {
      server.registerTool(
        tool.name,
        { ...config, inputSchema: tool.inputSchema },
        async (args: Record<string, unknown>, extra) =>
          (await tool.run(args, extra.signal)) as CallToolResult,
      );
    } else {
      server.registerTool(
        tool.name,
        config,
        async (extra) => (await tool.run({}, extra.signal)) as CallToolResult,
      );
    }
  }
  return server;
}

/** Lambda entry point: API Gateway HTTP API (payload format 2.0) → SDK 1.x, one server and transport per request. */
export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const server = buildServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await toLambdaResult(await transport.handleRequest(toWebRequest(event)));
  } finally {
    await transport.close();
    await server.close();
  }
}
