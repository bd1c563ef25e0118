import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiGatewayEvent, lambdaContext, type BenchHandler } from '../bench/lambda-event.ts';
import { toolCallRequest } from '@mcp-lambda/dev/load';
import { startTestS3, type TestS3 } from '@mcp-lambda/dev/testing';

/**
 * Per-tool metrics end to end: the real MCP function (`functions/mcp/handler.ts`) with MCP_TOOL_METRICS on, as the
 * stack deploys it, answers tool calls, and what it writes to stdout is read back as CloudWatch embedded metric
 * format (EMF) documents: namespace, dimensions per tool, units and values.
 */

const NAMESPACE = 'MCP/MetricsTest';

/** An EMF document as CloudWatch Logs reads it (the fields these tests look at). */
interface EmfDocument {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [field: string]: unknown;
}

let s3: TestS3;
let handler: BenchHandler;
let written: string[] = [];

beforeAll(async () => {
  s3 = await startTestS3();
  Object.assign(process.env, {
    ...s3.env(),
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    MCP_TOOL_METRICS: 'on',
    MCP_METRICS_NAMESPACE: NAMESPACE,
    MCP_SERVER_NAME: 'metrics-under-test',
  });
  delete process.env.POWERTOOLS_DEV;
  handler = (await import('../../functions/mcp/handler.ts')).handler as BenchHandler;
});

afterAll(async () => {
  await s3?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
  written = [];
});

/** Calls one tool through the Lambda handler and returns the result and the EMF documents written meanwhile. */
async function call(tool: string, args: unknown) {
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const request = toolCallRequest(tool, args as Record<string, unknown>, { era: 'handshake' });
  const result = (await handler(apiGatewayEvent(request), lambdaContext())) as { body: string };
  vi.restoreAllMocks();
  const documents = written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as EmfDocument);
  return { response: JSON.parse(result.body), documents };
}

/** The metric names and units a document declares, and its values. */
function metricsOf(document: EmfDocument) {
  const [directive] = document._aws.CloudWatchMetrics;
  return Object.fromEntries(
    directive!.Metrics.map((m) => [m.Name, { unit: m.Unit, value: document[m.Name] }]),
  );
}

describe('per-tool metrics from the MCP function', () => {
  it('writes one EMF document per tool call, in the namespace, with the service, method and tool dimensions', async () => {
    const before = Date.now();
    const { response, documents } = await call('ping', {});
    expect(response.result.content[0].text).toBe('pong');
    expect(documents).toHaveLength(1);
    const [document] = documents;
    expect(document!._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: NAMESPACE,
        Dimensions: [['service', 'mcp.method.name', 'gen_ai.tool.name']],
        Metrics: expect.any(Array),
      },
    ]);
    expect(document).toMatchObject({
      service: 'metrics-under-test',
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'ping',
      level: 'INFO',
    });
    expect(document!._aws.Timestamp).toBeGreaterThanOrEqual(before);
    const metrics = metricsOf(document!);
    // The MCP conventions' histogram, in seconds: one sample per call, so its sample count is the call count.
    expect(metrics).toEqual({
      'mcp.server.operation.duration': { unit: 'Seconds', value: expect.any(Number) },
    });
    const seconds = metrics['mcp.server.operation.duration']!.value as number;
    expect(seconds).toBeGreaterThanOrEqual(0);
    expect(seconds).toBeLessThan((Date.now() - before) / 1000 + 0.001);
  });

  it('counts an isError result as a tool error of that tool', async () => {
    const { response, documents } = await call('safe_divide', { a: 1, b: 0 });
    expect(response.result.isError).toBe(true);
    expect(documents.map((d) => d['gen_ai.tool.name'])).toEqual(['safe_divide']);
    expect(metricsOf(documents[0]!)).toMatchObject({
      'mcp.server.operation.duration': { unit: 'Seconds' },
      ToolErrors: { unit: 'Count', value: 1 },
    });
    expect(metricsOf(documents[0]!).ProtocolErrors).toBeUndefined();
  });

  it('counts invalid params to a registered tool as a client error, apart from tool and protocol errors', async () => {
    const { response, documents } = await call('ping', [1]);
    expect(response.error.code).toBe(-32602);
    expect(metricsOf(documents[0]!)).toMatchObject({ ClientErrors: { unit: 'Count', value: 1 } });
    expect(metricsOf(documents[0]!).ToolErrors).toBeUndefined();
    expect(metricsOf(documents[0]!).ProtocolErrors).toBeUndefined();
  });

  it('counts arguments that do not fit the inputSchema as a client error, not a tool error', async () => {
    const { response, documents } = await call('safe_divide', { a: 'one', b: 2 });
    expect(response.result.isError).toBe(true);
    expect(metricsOf(documents[0]!)).toMatchObject({ ClientErrors: { unit: 'Count', value: 1 } });
    expect(metricsOf(documents[0]!).ToolErrors).toBeUndefined();
  });

  it('writes nothing for a tool name the server does not have (no dimension a client can invent)', async () => {
    const { response, documents } = await call('no_such_tool_anywhere', {});
    expect(response.error.code).toBe(-32602);
    expect(documents).toEqual([]);
  });

  it('reports the bytes a call stored in the bucket, in Bytes', async () => {
    const { response, documents } = await call('generate_report', { rows: 2_000 });
    const link = response.result.content.find((b: { type: string }) => b.type === 'resource_link');
    expect(link).toBeDefined();
    const metrics = metricsOf(documents[0]!);
    expect(documents[0]!['gen_ai.tool.name']).toBe('generate_report');
    expect(metrics.OffloadedBytes).toEqual({ unit: 'Bytes', value: link.size });
  });
});
