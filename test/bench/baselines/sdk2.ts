/**
 * Baseline: the official SDK 2.x serving entry (`createMcpHandler` from `@modelcontextprotocol/server`) with the
 * example tools, behind the minimal API Gateway adapter. Stateless (2026-07-28) requests take its per-request path;
 * 2025-era requests take its stateless fallback for the handshake era. A fresh server per request is the SDK's own design.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
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
        async (args, ctx) => (await tool.run(args, ctx.mcpReq.signal)) as CallToolResult,
      );
    } else {
      server.registerTool(
        tool.name,
        config,
        async (ctx) => (await tool.run({}, ctx.mcpReq.signal)) as CallToolResult,
      );
    }
  }
  return server;
}

const mcp = createMcpHandler(buildServer);

/** Lambda entry point: API Gateway HTTP API (payload format 2.0) → SDK 2.x. */
export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  return toLambdaResult(await mcp.fetch(toWebRequest(event)));
}
