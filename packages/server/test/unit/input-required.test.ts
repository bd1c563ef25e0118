import { describe, expect, it } from 'vitest';
import { defineTool, definePrompt, inputRequired } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { silentLogger } from '../../src/log.ts';
import { BASE_HEADERS, statelessHeaders, statelessMeta, send } from '@mcp-lambda/dev/testing';

const askName = inputRequired({
  user_name: {
    method: 'elicitation/create',
    params: {
      message: 'What is your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  },
});

const server = createMcpServer({
  info: { name: 'unit', version: '1.0.0' },
  requestStateSecret: 'unit-test-request-state-secret',
  tools: [
    defineTool({
      name: 'greet',
      description: 'Asks for a name, then greets',
      handler: (_args, ctx) => {
        const answer = ctx.inputResponses?.user_name;
        if (answer?.action !== 'accept') return askName;
        return `Hello, ${(answer.content as { name: string }).name}!`;
      },
    }),
    defineTool({
      name: 'two_steps',
      description: 'Keeps its progress in requestState',
      handler: (_args, ctx) => {
        const state = ctx.requestState as { started?: boolean; name?: string } | undefined;
        const step1 = ctx.inputResponses?.step1;
        if (state?.started && step1?.action === 'accept') {
          const name = (step1.content as { name: string }).name;
          return inputRequired(
            { step2: { method: 'elicitation/create', params: { message: 'Colour?', requestedSchema: {} } } },
            { name },
          );
        }
        if (state?.name && ctx.inputResponses?.step2) return `${state.name} done`;
        return inputRequired(
          { step1: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: {} } } },
          { started: true },
        );
      },
    }),
    defineTool({
      name: 'order',
      description: 'Confirms the quantity before ordering',
      inputSchema: { type: 'object', properties: { qty: { type: 'integer' }, note: { type: 'string' } } },
      handler: ({ qty }, ctx) => {
        const state = ctx.requestState as { confirmed?: number } | undefined;
        if (state?.confirmed !== undefined && ctx.inputResponses?.confirm?.action === 'accept')
          return `ordered ${String(state.confirmed)}`;
        return inputRequired(
          {
            confirm: {
              method: 'elicitation/create',
              params: { message: `Order ${qty}?`, requestedSchema: {} },
            },
          },
          { confirmed: qty as number },
        );
      },
    }),
    defineTool({
      name: 'summarize',
      description: 'Needs sampling',
      handler: () =>
        inputRequired({
          draft: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } },
          roots: { method: 'roots/list' },
        }),
    }),
  ],
  prompts: [
    definePrompt({
      name: 'contextual',
      description: 'Asks for context first',
      handler: (_args, ctx) =>
        ctx.inputResponses.ctx
          ? `Use ${JSON.stringify(ctx.inputResponses.ctx.content)}`
          : inputRequired({
              ctx: { method: 'elicitation/create', params: { message: 'Context?', requestedSchema: {} } },
            }),
    }),
  ],
});

const meta = (capabilities: Record<string, unknown> = { elicitation: {} }) => ({
  ...statelessMeta(),
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const call = (name: string, extra: Record<string, unknown> = {}, capabilities?: Record<string, unknown>) =>
  send(server, {
    headers: statelessHeaders('tools/call', name),
    body: {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name, _meta: meta(capabilities), ...extra },
    },
  });

describe('multi round-trip requests (2026-07-28, InputRequiredResult)', () => {
  it('answers the first round with resultType input_required and the input requests', async () => {
    const res = await call('greet');
    expect(res.status).toBe(200);
    expect(res.json.result).toEqual({
      resultType: 'input_required',
      inputRequests: { user_name: askName.inputRequests.user_name },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'unit', version: '1.0.0' } },
    });
    expect(res.json.result).not.toHaveProperty('ttlMs');
  });

  it('completes when the client retries with inputResponses', async () => {
    const res = await call('greet', {
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
    });
    expect(res.json.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Hello, Alice!' }],
    });
  });

  it('ignores input responses it did not ask for', async () => {
    const res = await call('greet', {
      inputResponses: {
        user_name: { action: 'accept', content: { name: 'Alice' } },
        unexpected: { action: 'accept', content: {} },
      },
    });
    expect(res.json.result.resultType).toBe('complete');
  });

  it('asks again when the retry lacks the response it needs', async () => {
    const res = await call('greet', { inputResponses: { wrong_key: { action: 'accept', content: {} } } });
    expect(res.json.result.resultType).toBe('input_required');
  });

  it.each([
    ['null inputResponses', null],
    ['an array of inputResponses', []],
    ['a number as one response', { user_name: 12345 }],
    ['a string as one response', { user_name: 'Alice' }],
  ])('refuses %s with -32602', async (_name, inputResponses) => {
    const res = await call('greet', { inputResponses });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  it('carries state across rounds sealed, changed each round, and refuses it altered', async () => {
    const r1 = (await call('two_steps')).json.result;
    expect(r1.resultType).toBe('input_required');
    expect(typeof r1.requestState).toBe('string');
    expect(r1.requestState).not.toContain('started');

    const r2 = (
      await call('two_steps', {
        inputResponses: { step1: { action: 'accept', content: { name: 'Bo' } } },
        requestState: r1.requestState,
      })
    ).json.result;
    expect(Object.keys(r2.inputRequests)).toEqual(['step2']);
    expect(r2.requestState).not.toBe(r1.requestState);

    const r3 = await call('two_steps', {
      inputResponses: { step2: { action: 'accept', content: { color: 'blue' } } },
      requestState: r2.requestState,
    });
    expect(r3.json.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Bo done' }] });

    const tampered = await call('two_steps', {
      inputResponses: { step2: { action: 'accept', content: {} } },
      requestState: `${r2.requestState}-TAMPERED`,
    });
    expect(tampered.json.error).toMatchObject({ code: -32602 });
  });

  it('refuses a requestState replayed with other arguments (-32602), and accepts it with the same ones', async () => {
    const first = (await call('order', { arguments: { qty: 1, note: 'gift' } })).json.result;
    const confirm = { confirm: { action: 'accept', content: {} } };
    const replay = { inputResponses: confirm, requestState: first.requestState };
    for (const qty of [1000, 1000, 2]) {
      const res = await call('order', { arguments: { qty, note: 'gift' }, ...replay });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        id: 7,
        error: { code: -32602, message: /belongs to another request/ },
      });
    }
    const extra = await call('order', { arguments: { qty: 1, note: 'gift', rush: true }, ...replay });
    expect(extra.json.error).toMatchObject({ code: -32602 });
    const same = await call('order', { arguments: { note: 'gift', qty: 1 }, ...replay });
    expect(same.json.result).toMatchObject({ resultType: 'complete', content: [{ text: 'ordered 1' }] });
  });

  it('refuses a requestState issued for another tool', async () => {
    const { requestState } = (await call('two_steps')).json.result;
    const res = await call('greet', { requestState });
    expect(res.json.error).toMatchObject({ code: -32602 });
  });

  it('answers -32021 with HTTP 400 naming every capability the client did not declare', async () => {
    const res = await call('summarize', {}, { elicitation: {} });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      id: 7,
      error: { code: -32021, data: { requiredCapabilities: { sampling: {}, roots: {} } } },
    });
  });

  it('asks once the client declares what the requests need', async () => {
    const res = await call('summarize', {}, { sampling: {}, roots: {} });
    expect(Object.keys(res.json.result.inputRequests)).toEqual(['draft', 'roots']);
    expect(res.json.result.inputRequests.roots).toEqual({ method: 'roots/list' });
  });

  it('tells the model in the handshake era, which cannot carry the question', async () => {
    const res = await send(server, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet' } },
    });
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.content[0].text).toMatch(/elicitation\/create.*2026-07-28/);
  });

  it('serves prompts/get as a multi round-trip request too', async () => {
    const headers = statelessHeaders('prompts/get', 'contextual');
    const first = await send(server, {
      headers,
      body: { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'contextual', _meta: meta() } },
    });
    expect(first.json.result.resultType).toBe('input_required');
    const second = await send(server, {
      headers,
      body: {
        jsonrpc: '2.0',
        id: 2,
        method: 'prompts/get',
        params: {
          name: 'contextual',
          _meta: meta(),
          inputResponses: { ctx: { action: 'accept', content: { context: 'x' } } },
        },
      },
    });
    expect(second.json.result).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'Use {"context":"x"}' } }],
    });
  });

  it('warns once when it seals state with a key random to this instance', async () => {
    const warnings: string[] = [];
    const log = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const keyless = createMcpServer({
      info: { name: 'unit', version: '1.0.0' },
      tools: [
        defineTool({
          name: 'stateful',
          description: 'Keeps state',
          handler: () => inputRequired({ r: { method: 'roots/list' } }, { n: 1 }),
        }),
      ],
    });
    for (const id of [1, 2]) {
      const res = await keyless.handle(
        {
          method: 'POST',
          path: '/mcp',
          headers: { ...BASE_HEADERS, ...statelessHeaders('tools/call', 'stateful') },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'stateful', _meta: meta({ roots: {} }) },
          }),
        },
        { requestId: `r${id}`, log },
      );
      expect(JSON.parse(res.body).result.resultType).toBe('input_required');
    }
    expect(warnings.filter((w) => w.includes('requestStateSecret'))).toHaveLength(1);
  });

  it('refuses prompts/get input in the handshake era with a JSON-RPC error', async () => {
    const res = await send(server, {
      body: { jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'contextual' } },
    });
    expect(res.json.error).toMatchObject({ code: -32600 });
  });
});
