import type { McpServerOptions } from '@mcp-lambda/server/lambda';
import { memoryCallState, memoryTaskStore } from '@mcp-lambda/server/backend';
import { serveServer, serveStreamingServer, type RunningServer } from '@mcp-lambda/dev/testing';
import { conformancePrompts } from './fixtures/prompts.ts';
import { conformanceResources } from './fixtures/resources.ts';
import { conformanceTaskTools } from './fixtures/tasks.ts';
import { streamTools } from './fixtures/streams.ts';
import { conformanceTools } from './fixtures/tools.ts';

/**
 * The conformance server: the library's `createMcpServer` with the fixtures the MCP conformance suites expect
 * (the "everything" server of an SDK), behind the same Lambda adapter and local HTTP server as `npm start`.
 * It turns on what the example function leaves off (prompts, completion, logging) and serves the tasks
 * extension in-process, so every scenario a stateless server can serve is exercised.
 */
const conformanceServerOptions: McpServerOptions = {
  info: { name: 'mcp-lambda-template-conformance', version: '1.0.0', title: 'Conformance fixtures' },
  instructions: 'Fixture server for the MCP conformance suites.',
  tools: [...conformanceTools, ...conformanceTaskTools, ...streamTools],
  resources: [conformanceResources],
  prompts: conformancePrompts,
  logging: true,
  completions: true,
  // Handshake-era sessions, so tools can ask mid-call behind the streaming adapter (answers wait in memory: one
  // process serves every request here). Their keys seal the 2026-07-28 requestState too, as deployed.
  sessions: { keys: ['conformance-fixture-session-key-0000000000'] },
  callState: memoryCallState(),
  // The tasks extension, run in this process (the deployed stack runs tasks in its worker function).
  tasks: { store: memoryTaskStore() },
  http: {
    // The local server's DNS-rebinding guard, as `npm start` configures it.
    allowedHosts: ['127.0.0.1:*', 'localhost:*', '[::1]:*'],
    allowedOrigins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'],
  },
};

/**
 * Serves the conformance fixtures on 127.0.0.1 with a free port: behind the buffered adapter and the HTTP API
 * emulation (`http`), or behind the response-streaming adapter and the REST API streaming emulation.
 */
export function serveConformanceServer(api: 'http' | 'rest-streaming' = 'http'): Promise<RunningServer> {
  return api === 'http'
    ? serveServer(conformanceServerOptions)
    : serveStreamingServer(conformanceServerOptions);
}
