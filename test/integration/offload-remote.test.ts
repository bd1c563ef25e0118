import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcpFunction } from '../support/local.ts';
import { type RunningServer, startTestS3, type TestS3, pageOf } from '@mcp-lambda/dev/testing';
import { reportText } from '../support/report.ts';

// The deployed arrangement: the real MCP function writes outputs and hands resources/read for them to the real
// companion function by direct Lambda invoke (over @aws-sdk/client-lambda, pointed at a loopback stand-in for
// the Lambda Invoke API that runs the companion handler), and only the companion reads the bucket.

const FUNCTION = 'mcp-resources';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

let s3: TestS3;
let mcp: RunningServer;
let lambda: Server;
let lambdaUrl: string;
let lambdaMode: 'ok' | 'crash' = 'ok';
const invocations: { name: string; payload: any; answer?: any }[] = [];
let id = 0;

async function startLambdaApi(): Promise<void> {
  const { handler } = await import('../../functions/companion/handler.ts');
  lambda = createServer(async (req, res) => {
    const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !match) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const record: (typeof invocations)[number] = { name: decodeURIComponent(match[1]!), payload };
    invocations.push(record);
    if (lambdaMode === 'crash') {
      res
        .writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' })
        .end('{"errorType":"Error","errorMessage":"boom at /var/task/index.mjs:1"}');
      return;
    }
    record.answer = await handler(payload);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(record.answer));
  });
  await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', () => resolve()));
  lambdaUrl = `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`;
}

async function rpc(method: string, params: Record<string, unknown>) {
  const res = await fetch(mcp.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
}

beforeAll(async () => {
  s3 = await startTestS3();
  Object.assign(process.env, s3.env(), { POWERTOOLS_LOG_LEVEL: 'SILENT' });
  await startLambdaApi();
  mcp = await serveMcpFunction({ RESOURCES_FUNCTION_NAME: FUNCTION, AWS_ENDPOINT_URL_LAMBDA: lambdaUrl });
});

afterAll(async () => {
  await mcp?.close();
  await new Promise<void>((resolve) => (lambda ? lambda.close(() => resolve()) : resolve()));
  await s3?.close();
});

describe('resources/read through the companion function', () => {
  let uri: string;
  let expected: string;

  beforeAll(async () => {
    expected = await reportText({ rows: 30_000 });
    const { result } = await rpc('tools/call', { name: 'generate_report', arguments: { rows: 30_000 } });
    uri = result.content.find((b: any) => b.type === 'resource_link').uri;
  });

  it('hands the read to the companion with a versioned request, and returns exactly the stored text', async () => {
    const before = invocations.length;
    const { result } = await rpc('resources/read', { uri });
    expect(sha(result.contents[0].text)).toBe(sha(expected));
    expect(result.contents[0]).toMatchObject({ uri, mimeType: 'text/csv' });
    expect(invocations.slice(before)).toHaveLength(1);
    expect(invocations.at(-1)).toMatchObject({
      name: FUNCTION,
      payload: { version: 1, uri, era: 'legacy', requestId: expect.any(String) },
      answer: { version: 1, status: 'found' },
    });
  });

  it('only writes to the bucket from the MCP function, and only reads it from the companion', () => {
    const gets = s3.requests.filter((r) => r.method === 'GET' && r.key);
    const found = invocations.filter((i) => i.answer?.status === 'found' || i.answer?.status === 'not_found');
    expect(gets.length).toBe(found.length);
    expect(s3.requests.filter((r) => r.method === 'PUT').length).toBeGreaterThan(0);
  });

  it('answers an unknown URI with -32002 after asking the companion', async () => {
    const unknown = `mcp-output://outputs/${'0'.repeat(32)}`;
    const answer = await rpc('resources/read', { uri: unknown });
    expect(answer.error).toEqual({
      code: -32002,
      message: `Resource not found: ${unknown}`,
      data: { uri: unknown },
    });
    expect(invocations.at(-1)?.answer).toEqual({ version: 1, status: 'not_found' });
  });

  it('answers a malformed URI with -32002 without invoking the companion', async () => {
    const before = invocations.length;
    const bad = uri.replace('outputs/', 'outputs/../');
    const answer = await rpc('resources/read', { uri: bad });
    expect(answer.error).toEqual({ code: -32002, message: `Resource not found: ${bad}`, data: { uri: bad } });
    expect(invocations.length).toBe(before);
  });

  it('a crashing companion gives -32603 with a safe message, and the next read works', async () => {
    lambdaMode = 'crash';
    try {
      const answer = await rpc('resources/read', { uri });
      expect(answer.error.code).toBe(-32603);
      expect(answer.error.message).toMatch(
        /^The stored output could not be read right now \(request id [^)]+\); try again shortly\.$/,
      );
    } finally {
      lambdaMode = 'ok';
    }
    expect(sha((await rpc('resources/read', { uri })).result.contents[0].text)).toBe(sha(expected));
  });

  it('S3 down behind the companion gives -32603, and the read works again once S3 is back', async () => {
    await s3.stop();
    try {
      const answer = await rpc('resources/read', { uri });
      expect(answer.error.code).toBe(-32603);
      expect(invocations.at(-1)?.answer).toEqual({ version: 1, status: 'unavailable' });
    } finally {
      await s3.start();
    }
    expect((await rpc('resources/read', { uri })).result.contents[0].text.length).toBe(expected.length);
  });

  it('read_output sends version-2 requests to the companion, which searches the stored text', async () => {
    const before = invocations.length;
    const { result } = await rpc('tools/call', {
      name: 'read_output',
      arguments: { uri, search: 'north', count: 2, context: 0 },
    });
    const lines = expected.split('\n');
    const north = lines.flatMap((l, i) => (l.includes('north') ? [{ line: i + 1, text: l }] : []));
    expect(result.structuredContent.search).toMatchObject({
      matchCount: north.length,
      matches: north.slice(0, 2).map((m) => m.line),
    });
    expect(pageOf(result).text).toBe(
      north
        .slice(0, 2)
        .map((m) => `${m.line}: ${m.text}`)
        .join('\n--\n'),
    );
    expect(invocations.slice(before)).toEqual([
      {
        name: FUNCTION,
        payload: {
          version: 2,
          uri,
          era: 'legacy',
          requestId: expect.any(String),
          query: {
            mode: 'search',
            text: 'north',
            ignoreCase: false,
            context: 0,
            maxMatches: 2,
            line: 1,
            budget: 16_384,
          },
        },
        answer: expect.objectContaining({ version: 2, status: 'page' }),
      },
    ]);
  });

  it('a crashing companion makes read_output answer isError with a safe message, and the next read works', async () => {
    lambdaMode = 'crash';
    try {
      const { result } = await rpc('tools/call', { name: 'read_output', arguments: { uri } });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(
        /^The stored output could not be read right now \(request id [^)]+\); try again shortly\.$/,
      );
    } finally {
      lambdaMode = 'ok';
    }
    const { result } = await rpc('tools/call', { name: 'read_output', arguments: { uri, count: 10 } });
    expect(pageOf(result).text).toBe(expected.slice(0, 10));
  });

  it('the Lambda API unreachable gives -32603, and other calls still work', async () => {
    await new Promise<void>((resolve) => {
      lambda.close(() => resolve());
      lambda.closeAllConnections();
    });
    const answer = await rpc('resources/read', { uri });
    expect(answer.error.code).toBe(-32603);
    expect(JSON.stringify(answer)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
    const { result } = await rpc('tools/call', { name: 'ping', arguments: {} });
    expect(result.content[0].text).toBe('pong');
    await new Promise<void>((resolve) =>
      lambda.listen(Number(new URL(lambdaUrl).port), '127.0.0.1', () => resolve()),
    );
    expect((await rpc('resources/read', { uri })).result.contents[0].text.length).toBe(expected.length);
  });
});
