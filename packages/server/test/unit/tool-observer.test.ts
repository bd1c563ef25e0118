import { describe, expect, it } from 'vitest';
import { defineTool, streamedText, ToolError } from '../../src/index.ts';
import { createMcpServer, observeAll, type ToolCallRecord } from '../../src/faces/lambda.ts';
import { memoryStorage } from '../../src/faces/backend.ts';
import { isClientError, toolMetricValues } from '../../src/tools/tool-metrics.ts';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { silentLogger } from '../../src/log.ts';
import { classifyEra } from '../../src/protocol/versions.ts';
import { send } from '@mcp-lambda/dev/testing';

/** A server whose observer keeps every record, with a 1 KiB offload threshold over memory storage. */
function observed() {
  const records: ToolCallRecord[] = [];
  const server = createMcpServer({
    info: { name: 'unit', version: '1.0.0' },
    tools: [
      defineTool({ name: 'ping', description: 'pong', handler: () => 'pong' }),
      defineTool({
        name: 'fails',
        description: 'always refuses',
        handler: () => {
          throw new ToolError('No: try another thing.');
        },
      }),
      defineTool({
        name: 'half',
        description: 'halves a number',
        inputSchema: {
          type: 'object',
          properties: { n: { type: 'number' } },
          required: ['n'],
          additionalProperties: false,
        } as const,
        handler: ({ n }) => String(n / 2),
      }),
      defineTool({ name: 'big', description: '5,000 bytes of text', handler: () => 'x'.repeat(5_000) }),
      defineTool({
        name: 'keep',
        description: 'stores 300 bytes explicitly and returns a small text too',
        handler: async (_args, ctx) => [
          await ctx.store({ data: 'y'.repeat(300), mimeType: 'text/plain' }),
          { type: 'text' as const, text: 'kept' },
        ],
      }),
      defineTool({
        name: 'stream',
        description: '3,000 bytes of text, streamed in blocks',
        handler: () => streamedText(['a'.repeat(1_000), 'b'.repeat(1_000), 'c'.repeat(1_000)]),
      }),
      defineTool({
        name: 'secret',
        description: 'needs a scope',
        scopes: ['reports:read'],
        handler: () => 'classified',
      }),
    ],
    offloader: createOffloader({
      storage: memoryStorage(),
      prefix: 'outputs/',
      thresholdBytes: 1024,
      ttlDays: 1,
    }),
    observer: { toolCall: (record) => records.push(record) },
  });
  return { server, records };
}

const call = (name: string, args: Record<string, unknown> = {}) => ({
  body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
});

describe('the tool call observer', () => {
  it('hears one record per answered call of a registered tool, with its outcome and duration', async () => {
    const { server, records } = observed();
    await send(server, call('ping'));
    await send(server, call('fails'));
    expect(records).toEqual([
      { tool: 'ping', outcome: 'ok', durationMs: expect.any(Number), offloadedBytes: 0 },
      { tool: 'fails', outcome: 'tool_error', durationMs: expect.any(Number), offloadedBytes: 0 },
    ]);
    for (const record of records) expect(record.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports refused arguments as invalid_arguments: an isError result to the model, the client’s mistake', async () => {
    const { server, records } = observed();
    const res = await send(server, call('half', { n: 'four' }));
    expect(res.json.result.isError).toBe(true);
    expect(records.map((r) => [r.tool, r.outcome])).toEqual([['half', 'invalid_arguments']]);
    expect(isClientError(records[0]!)).toBe(true);
  });

  it('hears nothing about a tool name no tool has, so a client cannot invent metric dimensions', async () => {
    const { server, records } = observed();
    const res = await send(server, call('made_up_by_the_client'));
    expect(res.json.error.code).toBe(-32602);
    await send(server, { body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 7 } } });
    expect(records).toEqual([]);
  });

  it('reports a JSON-RPC error answer to a registered tool as a protocol error', async () => {
    const { server, records } = observed();
    const res = await send(server, {
      body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ping', arguments: [1] } },
    });
    expect(res.json.error.code).toBe(-32602);
    expect(records.map((r) => [r.tool, r.outcome, r.errorCode])).toEqual([['ping', 'rejected', -32602]]);
  });

  it('reports a call refused for a missing scope as denied', async () => {
    const { server, records } = observed();
    const principal = { subject: 's', issuer: 'i', scopes: [], expiresAt: 0, key: 'k', clientKey: 'k' };
    const request = {
      jsonrpc: '2.0' as const,
      id: 4,
      method: 'tools/call',
      params: { name: 'secret', arguments: {} },
    };
    const outcome = await server.dispatch(request, {
      revision: classifyEra('tools/call', request.params, '2025-11-25'),
      requestId: 'r',
      log: silentLogger,
      principal,
    });
    expect(outcome.requiredScopes).toEqual(['reports:read']);
    expect(records.map((r) => [r.tool, r.outcome])).toEqual([['secret', 'denied']]);
  });

  it('counts the bytes a call stored, offloaded, streamed and explicit stores alike', async () => {
    const { server, records } = observed();
    const big = await send(server, call('big'));
    expect(big.json.result.content.some((b: { type: string }) => b.type === 'resource_link')).toBe(true);
    await send(server, call('keep'));
    const streamed = await send(server, call('stream'));
    expect(streamed.json.result.content.some((b: { type: string }) => b.type === 'resource_link')).toBe(true);
    await send(server, call('ping'));
    expect(records.map((r) => [r.tool, r.offloadedBytes])).toEqual([
      ['big', 5_000],
      ['keep', 300],
      ['stream', 3_000],
      ['ping', 0],
    ]);
  });

  it('keeps concurrent calls apart: each record holds its own call only', async () => {
    const { server, records } = observed();
    await Promise.all([send(server, call('big')), send(server, call('ping')), send(server, call('keep'))]);
    expect(Object.fromEntries(records.map((r) => [r.tool, r.offloadedBytes]))).toEqual({
      big: 5_000,
      ping: 0,
      keep: 300,
    });
  });
});

describe('observeAll', () => {
  const record = { tool: 'ping', outcome: 'ok' as const, durationMs: 1, offloadedBytes: 0 };

  it('tells every observer given, in order, and is undefined when none is', () => {
    const seen: string[] = [];
    const observer = observeAll({ toolCall: (r) => seen.push(`a:${r.tool}`) }, undefined, {
      toolCall: (r) => seen.push(`b:${r.tool}`),
    });
    observer!.toolCall(record);
    expect(seen).toEqual(['a:ping', 'b:ping']);
    expect(observeAll(undefined, undefined)).toBeUndefined();
    const only = { toolCall: () => undefined };
    expect(observeAll(only)).toBe(only);
  });
});

describe('the metric values of a tool call record', () => {
  const record = (outcome: ToolCallRecord['outcome'], errorCode?: number): ToolCallRecord => ({
    tool: 't',
    outcome,
    ...(errorCode !== undefined ? { errorCode } : {}),
    durationMs: 1,
    offloadedBytes: 0,
  });
  const errorsOf = (r: ToolCallRecord) =>
    toolMetricValues(r)
      .filter((m) => m.name.endsWith('Errors'))
      .map((m) => m.name);

  it('counts what a client can cause at will apart, as ClientErrors, never as tool or protocol errors', () => {
    expect(errorsOf(record('denied', -32001))).toEqual(['ClientErrors']);
    expect(errorsOf(record('invalid_arguments'))).toEqual(['ClientErrors']);
    expect(errorsOf(record('rejected', -32602))).toEqual(['ClientErrors']);
    expect(errorsOf(record('rejected', -32600))).toEqual(['ClientErrors']);
  });

  it('counts tool failures as ToolErrors and server-caused JSON-RPC errors as ProtocolErrors', () => {
    expect(errorsOf(record('tool_error'))).toEqual(['ToolErrors']);
    expect(errorsOf(record('rejected', -32603))).toEqual(['ProtocolErrors']);
    expect(errorsOf(record('rejected'))).toEqual(['ProtocolErrors']);
    for (const outcome of ['ok', 'input_required', 'task'] as const)
      expect(errorsOf(record(outcome))).toEqual([]);
  });
});
