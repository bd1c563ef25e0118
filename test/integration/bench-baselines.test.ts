import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { messagesOf, rpcRequest, toolCallRequest, type LoadEra } from '@mcp-lambda/dev/load';
import { baselineTools } from '../bench/baselines/tools.ts';
import { apiGatewayEvent, lambdaContext, type BenchHandler } from '../bench/lambda-event.ts';

/**
 * The benchmark is only fair if the SDK baselines serve the very tools ours serves: same names, same argument
 * rules, same answers. Each handler is called in process with the API Gateway event the benchmark sends. The
 * baselines declare the example tools (test/bench/baselines/tools.ts); tools a user adds to the template are ours
 * alone and left out of the comparison.
 */

const handlers: Record<string, BenchHandler> = {};

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  handlers.ours = (await import('../../functions/mcp/handler.ts')).handler as BenchHandler;
  handlers.sdk2 = (await import('../bench/baselines/sdk2.ts')).handler;
  handlers.sdk1 = (await import('../bench/baselines/sdk1.ts')).handler;
});

async function rpc(server: string, era: LoadEra, request: ReturnType<typeof rpcRequest>) {
  const result = (await handlers[server]!(
    apiGatewayEvent(request),
    lambdaContext(),
  )) as APIGatewayProxyStructuredResultV2;
  expect(result.statusCode).toBe(200);
  const [message] = messagesOf(String(result.headers?.['content-type']), result.body ?? '') as {
    result?: Record<string, unknown>;
    error?: unknown;
  }[];
  expect(message?.error, `${server} ${era}`).toBeUndefined();
  return message!.result!;
}

const SERVERS: [string, LoadEra][] = [
  ['ours', 'stateless'],
  ['ours', 'handshake'],
  ['sdk2', 'stateless'],
  ['sdk2', 'handshake'],
  ['sdk1', 'handshake'],
];

/** What a tool result means, without the envelope fields that differ by revision (`resultType`, `_meta`). */
const meaning = (result: Record<string, unknown>) => ({
  content: result.content,
  structuredContent: result.structuredContent,
  isError: result.isError === true,
});

const CALLS: [string, Record<string, unknown>][] = [
  ['ping', {}],
  ['safe_divide', { a: 6, b: 3 }],
  ['safe_divide', { a: 1, b: 0 }],
  ['text_stats', { text: 'the cat and the hat', top: 2 }],
  ['content_gallery', {}],
  ['generate_report', { rows: 3, seed: 7 }],
  ['render_chart', { values: [1, 2, 3], width: 16, height: 16 }],
];

describe('the SDK baselines of the benchmark', () => {
  it.each(SERVERS)('%s lists the example tools as ours does in the %s era', async (server, era) => {
    const ours = await rpc('ours', 'handshake', rpcRequest('tools/list', {}, { era: 'handshake' }));
    const theirs = await rpc(server, era, rpcRequest('tools/list', {}, { era }));
    const shape = (list: unknown) =>
      (
        list as {
          name: string;
          title?: string;
          description: string;
          annotations?: unknown;
          inputSchema: any;
        }[]
      ).map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        annotations: t.annotations,
        properties: Object.keys(t.inputSchema.properties ?? {}).sort(),
        required: [...(t.inputSchema.required ?? [])].sort(),
      }));
    const examples = new Set(baselineTools.map((tool) => tool.name));
    const listed = (list: unknown) => shape(list).filter((tool) => examples.has(tool.name));
    expect(listed(theirs.tools)).toEqual(listed(ours.tools));
    expect(listed(ours.tools)).toHaveLength(examples.size);
  });

  it.each(SERVERS.filter(([server]) => server !== 'ours'))(
    '%s answers every example call as ours does in the %s era',
    async (server, era) => {
      for (const [tool, args] of CALLS) {
        const ours = await rpc('ours', era, toolCallRequest(tool, args, { era }));
        const theirs = await rpc(server, era, toolCallRequest(tool, args, { era }));
        expect(meaning(theirs), `${tool} ${JSON.stringify(args)}`).toEqual(meaning(ours));
      }
    },
  );

  it.each(SERVERS.filter(([server]) => server !== 'ours'))(
    '%s refuses arguments outside the schema with isError in the %s era',
    async (server, era) => {
      const result = await rpc(server, era, toolCallRequest('safe_divide', { a: 'six', b: 3 }, { era }));
      expect(result.isError).toBe(true);
    },
  );
});
