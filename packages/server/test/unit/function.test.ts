import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { defineTool, staticResources } from '../../src/index.ts';
import { createCompanionFunction, createMcpFunction } from '../../src/faces/lambda.ts';
import { createTaskWorkerFunction } from '../../src/faces/worker.ts';
import { loadConfig } from '../../src/config.ts';
import { stateOptions } from '../../src/function/state.ts';
import { silentLogger, type Logger } from '../../src/log.ts';

/** A function's handler in one call: the app's parts given, everything else read from the `env` it is handed. */

const tools = [defineTool({ name: 'echo_back', description: 'Echoes', handler: async () => 'echoed' })];
const about = staticResources([{ uri: 'docs://fixture/about', name: 'about', read: () => 'About' }]);
const quiet = { LOG_LEVEL: 'SILENT', MCP_SERVER_NAME: 'function-under-test', MCP_SERVER_VERSION: '9.9.9' };
const context = { awsRequestId: 'fn-1', getRemainingTimeInMillis: () => 30_000 } as Context;

function post(method: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/mcp',
    rawQueryString: '',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    requestContext: { http: { method: 'POST', path: '/mcp' }, stage: '$default' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

async function call(handler: Awaited<ReturnType<typeof createMcpFunction>>, method: string) {
  return JSON.parse(String((await handler(post(method), context)).body)).result;
}

describe('createMcpFunction', () => {
  it('serves the app (its title, instructions, tools, resources) under the name the environment gives', async () => {
    const handler = await createMcpFunction({
      tools,
      title: 'Fixture',
      instructions: 'Call echo_back.',
      resources: [about],
      env: quiet,
    });
    const initialized = await call(handler, 'initialize');
    expect(initialized.serverInfo).toEqual({
      name: 'function-under-test',
      version: '9.9.9',
      title: 'Fixture',
    });
    expect(initialized.instructions).toBe('Call echo_back.');
    expect((await call(handler, 'tools/list')).tools.map((t: { name: string }) => t.name)).toEqual([
      'echo_back',
    ]);
    expect((await call(handler, 'resources/list')).resources.map((r: { uri: string }) => r.uri)).toEqual([
      'docs://fixture/about',
    ]);
  });

  it('adds read_output when outputs are stored and read through a companion (OFFLOAD_BUCKET, RESOURCES_FUNCTION_NAME)', async () => {
    const handler = await createMcpFunction({
      tools,
      env: {
        ...quiet,
        OFFLOAD_BUCKET: 'outputs',
        RESOURCES_FUNCTION_NAME: 'companion',
        AWS_REGION: 'us-east-1',
      },
    });
    const names = (await call(handler, 'tools/list')).tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo_back', 'read_output']));
  });
});

describe("the MCP function's call state", () => {
  /** What the function's state is made of under `env`, and the warnings its cold start logs. */
  function stateUnder(env: Record<string, string>) {
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (message) => void warnings.push(message) };
    const state = stateOptions({
      config: loadConfig({ ...quiet, ...env }),
      logger,
      aws: {},
      telemetry: undefined,
    });
    return { state, warnings };
  }

  it('is in MCP_CALL_STATE_TABLE, or in MCP_ASK_TABLE (an older construct set it) with one warning', () => {
    expect(stateUnder({ MCP_CALL_STATE_TABLE: 'calls' }).warnings).toEqual([]);
    const old = stateUnder({ MCP_ASK_TABLE: 'asks' });
    expect(old.state.callState).toBeDefined();
    expect(old.warnings).toEqual([
      expect.stringMatching(/^MCP_ASK_TABLE is the old name of MCP_CALL_STATE_TABLE/),
    ]);
    expect(stateUnder({}).warnings).toEqual([]);
  });
});

describe('the other functions refuse an environment that lacks what they need', () => {
  it('the companion needs OFFLOAD_BUCKET', async () => {
    await expect(createCompanionFunction({ env: quiet })).rejects.toThrow(/OFFLOAD_BUCKET/);
  });

  it('the task worker needs TASKS_TABLE', async () => {
    await expect(createTaskWorkerFunction({ tools, env: quiet })).rejects.toThrow(/TASKS_TABLE/);
  });
});
