import { setTimeout as sleep } from 'node:timers/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '@mcp-lambda/server';
import { serveStreamingHandler, serveStreamingServer, type RunningServer } from '@mcp-lambda/dev/testing';
import { exampleToolCalls, TEMPLATE_TOOL_NAMES } from './example-tools.ts';

// The official SDK 2.x client against the Lambda response-streaming adapter under the local server: progress
// notifications reach its `onprogress` callback while the tool still runs, in both eras; and the real MCP
// function's `streamingHandler` serves every example tool as its buffered handler does.

let returnedAt = 0;
let progressServer: RunningServer;
let realFunction: RunningServer;

beforeAll(async () => {
  progressServer = await serveStreamingServer({
    info: { name: 'streaming-interop', version: '1.0.0' },
    tools: [
      defineTool({
        name: 'count_slowly',
        description: 'Counts to three, one step every 200 ms, reporting progress at each step',
        handler: async (_args, ctx) => {
          for (let step = 1; step <= 3; step++) {
            await sleep(200);
            ctx.progress(step, 3, `step ${step}`);
          }
          await sleep(200);
          returnedAt = performance.now();
          return 'counted to 3';
        },
      }),
    ],
  });
  Object.assign(process.env, { POWERTOOLS_LOG_LEVEL: 'SILENT' });
  const { streamingHandler } = await import('../../functions/mcp/streaming.ts');
  realFunction = await serveStreamingHandler(streamingHandler);
});

afterAll(async () => {
  await progressServer?.close();
  await realFunction?.close();
});

// 'legacy' is the SDK's own name for its handshake-era mode.
type Mode = 'legacy' | { pin: '2026-07-28' };
const modes: { label: string; mode: Mode }[] = [
  { label: 'handshake mode (2025-11-25)', mode: 'legacy' },
  { label: 'pinned to 2026-07-28', mode: { pin: '2026-07-28' } },
];

async function connect(url: string, mode: Mode): Promise<Client> {
  const client = new Client({ name: 'streaming-sdk2', version: '2.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe.each(modes)('SDK 2.x client, $label, against a streaming endpoint', ({ mode }) => {
  it('receives each progress notification live, before the tool returns', async () => {
    const client = await connect(progressServer.url, mode);
    try {
      const seen: { at: number; progress: number; message?: string }[] = [];
      returnedAt = 0;
      const result = await client.callTool(
        { name: 'count_slowly', arguments: {} },
        { onprogress: (p) => seen.push({ at: performance.now(), progress: p.progress, message: p.message }) },
      );
      const resolvedAt = performance.now();
      expect(result.content).toEqual([{ type: 'text', text: 'counted to 3' }]);
      expect(seen.map((p) => [p.progress, p.message])).toEqual([
        [1, 'step 1'],
        [2, 'step 2'],
        [3, 'step 3'],
      ]);
      for (const p of seen) expect(p.at).toBeLessThan(returnedAt);
      expect(resolvedAt).toBeGreaterThanOrEqual(returnedAt);
    } finally {
      await client.close();
    }
  });

  it('calls every example tool of the real function through its streaming handler', async () => {
    const client = await connect(realFunction.url, mode);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TEMPLATE_TOOL_NAMES);
      for (const [, name, args, check] of exampleToolCalls)
        check(await client.callTool({ name, arguments: args }));
    } finally {
      await client.close();
    }
  });
});
