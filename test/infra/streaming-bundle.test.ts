import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, FUNCTION_ENTRIES } from '@mcp-lambda/cdk/bundling';
import { lambdaNode } from '../support/node-version.ts';

/**
 * The bundle `api=rest-streaming` deploys (`functions/mcp/streaming.ts`, built with the stack's settings), loaded by
 * a plain Node.js 22 process in which the `awslambda` global stands in for the runtime's, as Lambda defines it
 * before it loads a handler: the bundle must mark its handler with it and write through its HttpResponseStream.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DRIVER = fileURLToPath(new URL('./lambda-stream-driver.mjs', import.meta.url));
const run = promisify(execFile);
let dir: string;
let bundle: string;

beforeAll(async () => {
  // Inside the checkout, so the bundle resolves the modules it leaves external from node_modules.
  await mkdir(join(ROOT, '.local'), { recursive: true });
  dir = await mkdtemp(join(ROOT, '.local', 'streaming-bundle-'));
  bundle = join(dir, 'index.mjs');
  await build({ ...esbuildOptions(join(ROOT, FUNCTION_ENTRIES.mcpStreaming), dir), absWorkingDir: ROOT });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const restEvent = (body: unknown) =>
  JSON.stringify({
    resource: '/mcp',
    path: '/mcp',
    httpMethod: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    requestContext: { stage: 'prod', path: '/prod/mcp' },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  });

describe('the streaming MCP bundle in a plain Node.js 22 process with the runtime global', () => {
  it('marks its handler with streamifyResponse and answers through HttpResponseStream', async () => {
    const { stdout } = await run(
      lambdaNode('the streaming bundle test'),
      [
        DRIVER,
        bundle,
        restEvent({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } }),
        restEvent({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      ],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', POWERTOOLS_LOG_LEVEL: 'SILENT', AWS_REGION: 'us-east-1' },
        timeout: 60_000,
      },
    );
    const lines = stdout
      .split('\n')
      .filter((line) => line.startsWith('{"driver"'))
      .map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({ driver: 'loaded', streamified: true });
    const [ping, list] = lines.slice(1);
    expect(ping).toMatchObject({
      ended: true,
      prelude: { statusCode: 200, headers: { 'content-type': 'application/json' } },
    });
    expect(JSON.parse(ping.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'pong' }] },
    });
    expect(JSON.parse(list.body).result.tools.map((t: { name: string }) => t.name)).toContain('safe_divide');
  });
});
