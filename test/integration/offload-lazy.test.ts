import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '@mcp-lambda/dev/testing';

// Cold-start discipline (rare paths load lazily): the S3 and Lambda SDKs are imported only when an output is actually
// stored or read, never at start-up or for small results. Checked in a fresh Node process, where the module cache
// shows exactly what was loaded.

const run = promisify(execFile);

const SCRIPT = `
import { createRequire } from 'node:module';
const loaded = () => {
  const ids = Object.keys(createRequire(import.meta.url).cache);
  return { s3: ids.some((id) => id.includes('client-s3')), lambda: ids.some((id) => id.includes('client-lambda')) };
};
const { handler } = await import('./functions/mcp/handler.ts');
const call = async (name, args) => {
  const event = {
    version: '2.0', routeKey: '$default', rawPath: '/mcp', rawQueryString: '', isBase64Encoded: false,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    requestContext: { http: { method: 'POST', path: '/mcp' }, stage: '$default' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  };
  const context = { awsRequestId: 'lazy', getRemainingTimeInMillis: () => 30000 };
  return JSON.parse((await handler(event, context)).body).result;
};
const report = { atStart: loaded() };
await call('ping', {});
report.afterSmallResult = loaded();
const big = await call('generate_report', { rows: 5000 });
report.linked = big.content.some((b) => b.type === 'resource_link');
report.afterOffload = loaded();
console.log(JSON.stringify(report));
`;

let s3: TestS3;

beforeAll(async () => {
  s3 = await startTestS3();
});

afterAll(async () => {
  await s3?.close();
});

describe('lazy SDK loading', () => {
  it('the MCP function loads the S3 SDK only when it stores an output, and never the Lambda SDK locally', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      env: { ...process.env, ...s3.env(), POWERTOOLS_LOG_LEVEL: 'SILENT' },
      timeout: 30_000,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      atStart: { s3: false, lambda: false },
      afterSmallResult: { s3: false, lambda: false },
      linked: true,
      afterOffload: { s3: true, lambda: false },
    });
  });
});
