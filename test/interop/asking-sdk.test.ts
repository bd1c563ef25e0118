import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalDynamo, type LocalDynamo } from '@mcp-lambda/dev/testing';
import { EVERY_SHAPE } from './asking-tools.ts';
import { startAskingInstance, type AskingInstance } from '../support/start-asking-instance.ts';

// The official SDK 1.x and 2.x clients, with elicitation, sampling and roots handlers, against two instances of a
// streaming server in processes of their own that share one local DynamoDB table: every tool call goes to the first,
// every answer the client POSTs goes to the second, so each answer provably crosses instances through the
// call state (docs/asking.md).

let dynamo: LocalDynamo;
const instances: AskingInstance[] = [];
/**
 * HTTP statuses of the answers the second instance received, as promises: the instance stores an answer before it
 * says 202, so the call can finish (on the first instance) before the 202 reaches the client.
 */
const answered: Promise<number>[] = [];
/** The statuses of every answer sent so far, once each has been answered. */
const answerStatuses = () => Promise.all(answered);

/** Requests go to the first instance, answers (JSON-RPC responses) to the second. */
const crossing: typeof fetch = async (input, init) => {
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
  const isAnswer = body !== undefined && body.method === undefined;
  const url = instances[isAnswer ? 1 : 0]!.url;
  const response = fetch(url, init);
  if (isAnswer)
    answered.push(
      response.then(
        (r) => r.status,
        () => 0,
      ),
    ); // 0: the answer never reached the instance
  return response;
};

beforeAll(async () => {
  dynamo = await startLocalDynamo('asks-under-test');
  instances.push(
    ...(await Promise.all([
      startAskingInstance(dynamo, 'asking-interop-session-key-0000000000'),
      startAskingInstance(dynamo, 'asking-interop-session-key-0000000000'),
    ])),
  );
}, 60_000);

afterAll(async () => {
  for (const { child } of instances) child.kill('SIGTERM');
  await dynamo?.close();
});

/** What the clients answer, and what they were asked. */
const seen: { method: string; params: any }[] = [];
const SHAPE_ANSWER = {
  name: 'Grace',
  email: 'grace@example.com',
  budget: 12.5,
  seats: 3,
  newsletter: true,
  plan: 'pro',
  region: 'eu',
  features: ['sso', 'audit'],
};
let declineForms = false;

function elicited(params: any) {
  seen.push({ method: 'elicitation/create', params });
  if (declineForms) return { action: 'decline' as const };
  const fields = Object.keys(params.requestedSchema.properties);
  if (fields.includes('seats')) return { action: 'accept' as const, content: SHAPE_ANSWER };
  return { action: 'accept' as const, content: { username: 'testuser', email: 'test@example.com' } };
}
const SAMPLED = {
  role: 'assistant' as const,
  content: { type: 'text' as const, text: 'Paris.' },
  model: 'test-model',
  stopReason: 'endTurn',
};
const ROOTS = { roots: [{ uri: 'file:///work', name: 'work' }] };
const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };

/** An SDK client connected to the instances; `callTool` and `close`. */
interface Connected {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<any>;
  close(): Promise<void>;
}

async function sdk1(): Promise<Connected> {
  const client = new Client1({ name: 'asking-sdk1', version: '1.0.0' }, { capabilities: CAPABILITIES });
  client.setRequestHandler(ElicitRequestSchema, async (request) => elicited(request.params));
  client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLED);
  client.setRequestHandler(ListRootsRequestSchema, async () => ROOTS);
  await client.connect(new Transport1(new URL(instances[0]!.url), { fetch: crossing }));
  return client;
}

async function sdk2(): Promise<Connected> {
  const client = new Client2(
    { name: 'asking-sdk2', version: '2.0.0' },
    { versionNegotiation: { mode: 'legacy' }, capabilities: CAPABILITIES },
  );
  client.setRequestHandler('elicitation/create', async (request) => elicited(request.params));
  client.setRequestHandler('sampling/createMessage', async () => SAMPLED);
  client.setRequestHandler('roots/list', async () => ROOTS);
  await client.connect(new Transport2(new URL(instances[0]!.url), { fetch: crossing }));
  return client as unknown as Connected;
}

describe.each([
  { label: 'SDK 1.x', connect: sdk1 },
  { label: 'SDK 2.x (handshake era)', connect: sdk2 },
])('$label asked mid-call, answers crossing instances', ({ connect }) => {
  it('elicitation: the person answers the form and the call completes', async () => {
    const client = await connect();
    try {
      answered.length = 0;
      const result = await client.callTool({
        name: 'test_elicitation',
        arguments: { message: 'Who are you?' },
      });
      expect(result.content).toEqual([
        {
          type: 'text',
          text: 'User response: action=accept, content={"username":"testuser","email":"test@example.com"}',
        },
      ]);
      expect(await answerStatuses()).toEqual([202]);
    } finally {
      await client.close();
    }
  });

  it('sampling and roots: the client completes and lists, the call completes', async () => {
    const client = await connect();
    try {
      answered.length = 0;
      const sampled = await client.callTool({
        name: 'test_sampling',
        arguments: { prompt: 'Capital of France?' },
      });
      expect(sampled.content).toEqual([{ type: 'text', text: 'LLM response: Paris.' }]);
      const roots = await client.callTool({ name: 'list_roots', arguments: {} });
      expect(roots.content).toEqual([{ type: 'text', text: 'work file:///work' }]);
      expect(await answerStatuses()).toEqual([202, 202]);
    } finally {
      await client.close();
    }
  });

  it("every form shape Claude Code renders round-trips: the schema with its defaults, the person's values", async () => {
    const client = await connect();
    try {
      seen.length = 0;
      const result = await client.callTool({ name: 'every_shape', arguments: {} });
      expect(seen[0]!.params.requestedSchema).toEqual(EVERY_SHAPE);
      expect(result.structuredContent).toEqual({ action: 'accept', content: SHAPE_ANSWER });
    } finally {
      await client.close();
    }
  });

  it('a declined form reaches the tool as a decline', async () => {
    const client = await connect();
    try {
      declineForms = true;
      const result = await client.callTool({ name: 'every_shape', arguments: {} });
      expect(result.structuredContent).toEqual({ action: 'decline' });
    } finally {
      declineForms = false;
      await client.close();
    }
  });
});
