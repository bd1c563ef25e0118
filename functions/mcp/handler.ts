import { Logger } from '@aws-lambda-powertools/logger';
import { loadConfig } from '../../src/config.ts';
import { createLambdaHandler } from '../../src/lambda/adapter.ts';
import { createMcpServer } from '../../src/server.ts';
import { serverResources } from './resources.ts';
import { tools } from './tools/index.ts';
import { validators } from './validators.generated.ts';

// Cold start: read configuration and build the server once per container.
const config = loadConfig();
const logger = new Logger({ serviceName: config.serverName });

const server = createMcpServer({
  info: { name: config.serverName, version: config.serverVersion, title: 'MCP on AWS Lambda' },
  instructions:
    'Large tool outputs arrive as resource_link blocks: read them with resources/read when you need the content.',
  tools,
  validators,
  resources: [serverResources],
  pageSize: config.pageSize,
  toolTimeoutMs: config.toolTimeoutMs,
  listCache: { ttlMs: config.listCacheTtlMs, cacheScope: 'public' },
  http: {
    path: config.mcpPath,
    allowedOrigins: config.allowedOrigins,
    maxBodyBytes: config.maxBodyBytes,
    ...(config.allowedHosts ? { allowedHosts: config.allowedHosts } : {}),
  },
});

/** Lambda entry point: API Gateway HTTP API (payload format 2.0) → MCP. */
export const handler = createLambdaHandler(server.handle, logger);
