import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, streamedText } from '../../src/index.ts';
import {
  createLambdaHandler,
  createMcpServer,
  createOffloader,
  createStoredReadHandler,
  remoteStoredOutputs,
  silentLogger,
  storedOutputPages,
  storedOutputs,
  type McpServerOptions,
} from '../../src/faces/lambda.ts';
import { lambdaInvoker, s3RangeReader, s3Storage } from '../../src/faces/aws.ts';
import type { InvokeCompanion } from '../../src/faces/backend.ts';
import { LOCAL_S3_CREDENTIALS } from '@mcp-lambda/dev';
import {
  serveHandler,
  serveServer,
  type RunningServer,
  BASE_HEADERS,
  deadEndpoint,
  silentEndpoint,
  type SilentEndpoint,
} from '@mcp-lambda/dev/testing';

/**
 * Every outbound call ends before the invocation does: a storage or companion endpoint that accepts connections
 * and never answers costs the client an honest `isError` or -32603 within the deadline, not a gateway timeout.
 */

/** The simulated Lambda time limit of these servers: answers must arrive before it. */
const DEADLINE_MS = 4_000;

let silent: SilentEndpoint;
const servers: RunningServer[] = [];

const tools = [
  defineTool({ name: 'small', description: 'a small answer', handler: () => 'still here' }),
  defineTool({ name: 'large', description: 'an output to store', handler: () => 'x'.repeat(5_000) }),
  defineTool({
    name: 'keep',
    description: 'stores explicitly',
    handler: (_args, ctx) => ctx.store({ data: 'kept', mimeType: 'text/plain' }),
  }),
  defineTool({
    name: 'report',
    description: 'a streamed output to store',
    handler: () => streamedText(['id,total\n', 'x,1\n'.repeat(2_000)], { mimeType: 'text/csv' }),
  }),
];

/** The bucket on the endpoint that never answers. */
const silentBucket = () => ({
  bucket: 'outputs',
  endpoint: silent.url,
  credentials: { ...LOCAL_S3_CREDENTIALS },
  // Far beyond the deadline: only the deadline's signal can end these calls in time.
  connectionTimeoutMs: 60_000,
  requestTimeoutMs: 60_000,
});

/**
 * The time each request's handler had left when it returned, by the server's own clock: what "before the deadline"
 * means. The client's clock adds the time the answer waited to be read, which on a busy machine is the scheduler's.
 */
const remaining: number[] = [];

async function serve(
  resources: McpServerOptions['resources'],
  extra: Partial<McpServerOptions> = {},
): Promise<RunningServer> {
  const storage = s3Storage(silentBucket());
  const server = createMcpServer({
    info: { name: 'deadlines', version: '1.0.0' },
    tools,
    offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 1024, ttlDays: 1 }),
    resources: resources ?? [storedOutputs({ storage, prefix: 'outputs/' })],
    // Tools may run until 2.5 s before the deadline; storing then has until 1 s before it.
    reserveMs: 2_500,
    ...extra,
  });
  const handler = createLambdaHandler(server.handle, silentLogger);
  const running = await serveHandler(
    async (event, context) => {
      const result = await handler(event, context);
      remaining.push(context.getRemainingTimeInMillis());
      return result;
    },
    { timeoutMs: DEADLINE_MS },
  );
  servers.push(running);
  return running;
}

/** One request; `leftMs` is the time its handler had left when it answered (undefined if it never returned). */
async function post(url: string, method: string, params: Record<string, unknown>) {
  const answered = remaining.length;
  const res = await fetch(url, {
    method: 'POST',
    headers: BASE_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const json = (await res.json()) as any;
  return { status: res.status, json, leftMs: remaining[answered] };
}

const URI = `mcp-output://outputs/${'a'.repeat(32)}`;

/**
 * The first output a process stores loads the offloader's code and the S3 SDK, as a cold start does: on a busy
 * machine that alone can outlast these short deadlines, and the call then answers isError without ever reaching the
 * endpoint. One output stored first on an endpoint that refuses connections (which fails at once) loads them, so a
 * test's deadline is left for the call itself and the wait on the silent endpoint: the call reaches it, busy or not.
 */
async function loadStoringCode(): Promise<void> {
  const storage = s3Storage({ ...silentBucket(), endpoint: await deadEndpoint() });
  const server = await serveServer(
    {
      info: { name: 'deadlines-warm-up', version: '1.0.0' },
      tools,
      offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 1024, ttlDays: 1 }),
      reserveMs: 2_500,
    },
    // Time enough for the loading itself, whatever the machine's speed: the refusal ends the call.
    { timeoutMs: 60_000 },
  );
  try {
    const res = await post(server.url, 'tools/call', { name: 'large' });
    expect(res.json.result.content[0].text).toMatch(/could not be stored \(storage is unavailable/);
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  silent = await silentEndpoint();
  await loadStoringCode();
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await silent.close();
});

describe('a storage endpoint that accepts connections and never answers', () => {
  it('a tool call whose output must be stored answers isError before the deadline, saying so', async () => {
    const server = await serve(undefined);
    const before = silent.connections();
    const res = await post(server.url, 'tools/call', { name: 'large' });
    expect(silent.connections()).toBeGreaterThan(before);
    expect(res.status).toBe(200);
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.content[0].text).toMatch(/could not be stored \(storage did not answer in time/);
    expect(res.leftMs).toBeGreaterThan(0);
  });

  it('an explicit ctx.store() answers isError before the deadline, saying the output could not be stored', async () => {
    const server = await serve(undefined);
    const res = await post(server.url, 'tools/call', { name: 'keep' });
    expect(res.json.result).toMatchObject({ isError: true });
    expect(res.json.result.content[0].text).toMatch(/could not be stored \(storage did not answer in time/);
    expect(res.leftMs).toBeGreaterThan(0);
  });

  it('a streamed output stored while it is produced answers before the deadline that it could not be stored, not that the tool was slow', async () => {
    const server = await serve(undefined);
    const res = await post(server.url, 'tools/call', { name: 'report' });
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.content[0].text).toMatch(
      /^The output of tool "report" \([\d,]+ bytes so far\) was too large to return inline and could not be stored \(storage did not answer in time, before the end of the call\)/,
    );
    expect(res.leftMs).toBeGreaterThan(0);
  });

  it('a stored-output read answers -32603 before the deadline', async () => {
    const server = await serve(undefined);
    const res = await post(server.url, 'resources/read', { uri: URI });
    expect(res.status).toBe(200);
    expect(res.json.error).toMatchObject({ code: -32603, message: expect.stringMatching(/try again/) });
    expect(res.leftMs).toBeGreaterThan(0);
  });

  it('a read through a companion function that never answers answers -32603 before the deadline', async () => {
    const invoke = lambdaInvoker({
      functionName: 'resources',
      endpoint: silent.url,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    const server = await serve([remoteStoredOutputs({ invoke, prefix: 'outputs/' })]);
    const res = await post(server.url, 'resources/read', { uri: URI });
    expect(res.json.error).toMatchObject({ code: -32603 });
    expect(res.leftMs).toBeGreaterThan(0);
  });

  it('read_output through a companion function that never answers says the output could not be read, before the deadline', async () => {
    const invoke = lambdaInvoker({
      functionName: 'resources',
      endpoint: silent.url,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    const pages = remoteStoredOutputs({ invoke, prefix: 'outputs/' });
    const server = await serve([pages], { outputPages: pages });
    const res = await post(server.url, 'tools/call', { name: 'read_output', arguments: { uri: URI } });
    expect(res.json.result).toMatchObject({
      isError: true,
      content: [
        { type: 'text', text: expect.stringMatching(/^The stored output could not be read right now/) },
      ],
    });
    expect(res.leftMs).toBeGreaterThan(0);
  });

  it('the same server answers the next call at once', async () => {
    const server = servers[0]!;
    const res = await post(server.url, 'tools/call', { name: 'small' });
    expect(res.json.result).toEqual({ content: [{ type: 'text', text: 'still here' }] });
    expect(res.leftMs).toBeGreaterThan(DEADLINE_MS / 2);
  });
});

describe('the companion reading pages from a bucket that never answers', () => {
  /** The companion invocation's own time limit: shorter than the tool's budget, so it is what ends the read. */
  const COMPANION_DEADLINE_MS = 2_000;
  const answers: { status: unknown; ms: number }[] = [];
  let server: RunningServer;

  beforeAll(async () => {
    const bucket = silentBucket();
    const companion = createStoredReadHandler(
      storedOutputs({ storage: s3Storage(bucket), prefix: 'outputs/' }),
      silentLogger,
      storedOutputPages({ storage: s3RangeReader(bucket), prefix: 'outputs/' }),
    );
    // The companion function in-process, with a Lambda context carrying its own deadline.
    const invoke: InvokeCompanion = async (payload) => {
      const started = performance.now();
      const deadline = Date.now() + COMPANION_DEADLINE_MS;
      const answer = await companion(JSON.parse(payload), {
        getRemainingTimeInMillis: () => deadline - Date.now(),
      });
      answers.push({ status: answer.status, ms: performance.now() - started });
      return JSON.stringify(answer);
    };
    const pages = remoteStoredOutputs({ invoke, prefix: 'outputs/' });
    server = await serve([pages], { outputPages: pages });
  });

  it('answers a page unavailable before its own deadline, and read_output answers isError before the deadline', async () => {
    const before = silent.connections();
    const res = await post(server.url, 'tools/call', { name: 'read_output', arguments: { uri: URI } });
    expect(silent.connections()).toBeGreaterThan(before);
    expect(answers).toEqual([{ status: 'unavailable', ms: expect.any(Number) }]);
    expect(answers[0]!.ms).toBeLessThan(COMPANION_DEADLINE_MS);
    expect(res.json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/could not be read right now/) }],
    });
    expect(res.leftMs).toBeGreaterThan(0);
  });

  it('the same server answers the next call at once', async () => {
    const res = await post(server.url, 'tools/call', { name: 'small' });
    expect(res.json.result).toEqual({ content: [{ type: 'text', text: 'still here' }] });
    expect(res.leftMs).toBeGreaterThan(DEADLINE_MS / 2);
  });
});
