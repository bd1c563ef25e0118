import {
  Client as Client2,
  MissingRequiredClientCapabilityError,
  StreamableHTTPClientTransport as Transport2,
} from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@mcp-lambda/dev/testing';
import { serveConformanceServer } from '../conformance/server.ts';
import { finalResponse, recordingFetch } from './wire.ts';

// Multi round-trip requests (2026-07-28 InputRequiredResult) and x-mcp-header mirroring with the official SDK
// 2.x client, which fulfils input requests through its own request handlers and retries on its own. Served by
// the conformance fixtures, which use both features; the example function uses neither.
let server: RunningServer;
const wire = recordingFetch();
let client: Client2;
const asked: string[] = [];

beforeAll(async () => {
  server = await serveConformanceServer();
  client = new Client2(
    { name: 'interop-input', version: '2.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    const fields = Object.keys(
      (request.params as { requestedSchema: { properties: object } }).requestedSchema.properties,
    );
    const answers: Record<string, string> = { name: 'Alice', color: 'blue', context: 'holiday' };
    return { action: 'accept', content: Object.fromEntries(fields.map((f) => [f, answers[f] ?? 'x'])) };
  });
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'Paris.' },
    model: 'test-model',
    stopReason: 'endTurn',
  }));
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  await client.connect(new Transport2(new URL(server.url), { fetch: wire.fetch }));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('input required results with the SDK 2.x client (2026-07-28)', () => {
  it('runs a three-round tool call, answering each question through its elicitation handler', async () => {
    asked.length = 0;
    const result = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Alice likes blue.' }]);
    expect(asked).toEqual(['Step 1: What is your name?', 'Step 2: What is your favorite color?']);
    const rounds = wire.calls('tools/call').slice(-3);
    expect(rounds.map((e) => finalResponse(e)?.result.resultType)).toEqual([
      'input_required',
      'input_required',
      'complete',
    ]);
    // The client echoes the sealed state byte for byte; each round's state differs.
    const states = rounds.map((e) => e.request?.params?.requestState);
    expect(states[0]).toBeUndefined();
    expect(states[1]).toBe(finalResponse(rounds[0]!)?.result.requestState);
    expect(states[2]).toBe(finalResponse(rounds[1]!)?.result.requestState);
    expect(states[2]).not.toBe(states[1]);
  });

  it('answers elicitation, sampling and roots requested together in one round', async () => {
    const result = await client.callTool({
      name: 'test_input_required_result_multiple_inputs',
      arguments: {},
    });
    expect(result.content).toEqual([{ type: 'text', text: 'Paris. Alice (1 roots)' }]);
  });

  it('serves a prompt that asks for input first', async () => {
    const prompt = await client.getPrompt({ name: 'test_input_required_result_prompt' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Answer using this context: holiday' } },
    ]);
  });

  it('mirrors an x-mcp-header argument into Mcp-Param-Region, Base64-wrapped when not plain ASCII', async () => {
    for (const region of ['eu-west-1', 'Zürich']) {
      const result = await client.callTool({ name: 'test_header_param', arguments: { region } });
      expect(result.content).toEqual([{ type: 'text', text: `Region: ${region}` }]);
      const header = wire.calls('tools/call').at(-1)!.requestHeaders['mcp-param-region'];
      expect(header).toBe(
        region === 'Zürich' ? `=?base64?${Buffer.from(region).toString('base64')}?=` : region,
      );
    }
  });

  it('is refused with -32021 when the client did not declare the capability a tool needs', async () => {
    const bare = new Client2(
      { name: 'interop-bare', version: '2.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await bare.connect(new Transport2(new URL(server.url)));
    try {
      const error = await bare
        .callTool({ name: 'test_missing_capability', arguments: {} })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
      expect((error as MissingRequiredClientCapabilityError).code).toBe(-32021);
    } finally {
      await bare.close();
    }
  });
});

describe('input required results with the SDK 1.x client (handshake era)', () => {
  it('tells the model the tool needs a 2026-07-28 client, as an isError result', async () => {
    const handshake = new Client1(
      { name: 'interop-handshake', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    await handshake.connect(new Transport1(new URL(server.url)));
    try {
      const result = await handshake.callTool({
        name: 'test_input_required_result_elicitation',
        arguments: {},
      });
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(/elicitation\/create.*2026-07-28/);
    } finally {
      await handshake.close();
    }
  });
});
