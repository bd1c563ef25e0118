import { describe, expect, it } from 'vitest';
import { AskError, defineTool } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { statelessHeaders, statelessMeta, send } from '@mcp-lambda/dev/testing';

// ctx.elicit / ctx.sample / ctx.roots in 2026-07-28: the call ends with an InputRequiredResult for the first
// question it cannot answer, and runs again from the top with the answers (asking/replay.ts).

let effects = 0;
const FORM = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
  required: ['name'],
};

const server = createMcpServer({
  info: { name: 'asking-stateless', version: '1.0.0' },
  requestStateSecret: 'asking-stateless-request-state-secret',
  tools: [
    defineTool({
      name: 'greet_twice',
      description: 'Asks a name, then a completion, then acts once',
      handler: async (_args, ctx) => {
        const person = await ctx.elicit({ message: 'Your name?', requestedSchema: FORM });
        if (person.action !== 'accept') return `no name (${person.action})`;
        const poem = await ctx.sample({
          messages: [{ role: 'user', content: { type: 'text', text: `A line for ${person.content!.name}` } }],
          maxTokens: 20,
        });
        effects++; // after the last ask: runs once
        return `${person.content!.name}: ${(poem.content as { text: string }).text}`;
      },
    }),
    defineTool({
      name: 'roots_or_not',
      description: 'Lists roots when the client has them, says so otherwise',
      handler: async (_args, ctx) => {
        try {
          const roots = await ctx.roots();
          return roots.map((r) => r.uri).join(', ');
        } catch (error) {
          if (error instanceof AskError && error.reason === 'not-declared') return 'no roots here';
          throw error;
        }
      },
    }),
    defineTool({
      name: 'fickle',
      description: 'Asks something different on every run (a bug)',
      handler: async (_args, ctx) => {
        await ctx.elicit({ message: `Now is ${Math.random()}`, requestedSchema: FORM });
        return 'unreachable';
      },
    }),
  ],
});

const CAPS = { elicitation: {}, sampling: {} };

function call(name: string, extra: Record<string, unknown> = {}, capabilities: object = CAPS) {
  const _meta = { ...statelessMeta(), 'io.modelcontextprotocol/clientCapabilities': capabilities };
  return send(server, {
    headers: statelessHeaders('tools/call', name),
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, _meta, ...extra } },
  });
}

describe('ctx.elicit in 2026-07-28', () => {
  it('asks one question per round and runs the handler again with the recorded answers', async () => {
    effects = 0;
    const first = await call('greet_twice');
    expect(first.json.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        'ask-0': { method: 'elicitation/create', params: { message: 'Your name?', requestedSchema: FORM } },
      },
    });
    const second = await call('greet_twice', {
      inputResponses: { 'ask-0': { action: 'accept', content: { name: 'Ada' } } },
      requestState: first.json.result.requestState,
    });
    expect(Object.keys(second.json.result.inputRequests)).toEqual(['ask-1']);
    expect(second.json.result.inputRequests['ask-1'].method).toBe('sampling/createMessage');
    const third = await call('greet_twice', {
      inputResponses: {
        'ask-1': { role: 'assistant', content: { type: 'text', text: 'hello, world' }, model: 'm' },
      },
      requestState: second.json.result.requestState,
    });
    expect(third.json.result.content).toEqual([{ type: 'text', text: 'Ada: hello, world' }]);
    expect(effects).toBe(1);
  });

  it('gives the tool a decline as the answer', async () => {
    const first = await call('greet_twice');
    const second = await call('greet_twice', {
      inputResponses: { 'ask-0': { action: 'decline' } },
      requestState: first.json.result.requestState,
    });
    expect(second.json.result.content).toEqual([{ type: 'text', text: 'no name (decline)' }]);
  });

  it('ignores an answer the client made up before the question was asked', async () => {
    const made_up = await call('greet_twice', {
      inputResponses: { 'ask-0': { action: 'accept', content: { name: 'Mallory' } } },
    });
    expect(made_up.json.result.resultType).toBe('input_required');
  });

  it('refuses an accepted answer that does not fit the form, with advice for the model', async () => {
    const first = await call('greet_twice');
    const second = await call('greet_twice', {
      inputResponses: { 'ask-0': { action: 'accept', content: { name: 42 } } },
      requestState: first.json.result.requestState,
    });
    expect(second.json.result.isError).toBe(true);
    expect(second.json.result.content[0].text).toContain(`the answer's field "name" is not a string`);
  });

  it('answers -32021 (HTTP 400) when the client lacks the capability and the tool does not handle it', async () => {
    const res = await call('greet_twice', {}, { sampling: {} });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it('lets a tool catch the refusal and go on without asking', async () => {
    const res = await call('roots_or_not');
    expect(res.json.result.content).toEqual([{ type: 'text', text: 'no roots here' }]);
  });

  it('refuses a re-run that asks a different question instead of mis-answering it', async () => {
    const first = await call('fickle');
    const second = await call('fickle', {
      inputResponses: { 'ask-0': { action: 'accept', content: { name: 'x' } } },
      requestState: first.json.result.requestState,
    });
    expect(second.json.result.resultType).toBe('input_required');
    const third = await call('fickle', {
      inputResponses: { 'ask-0': { action: 'accept', content: { name: 'x' } } },
      requestState: second.json.result.requestState,
    });
    // Each run asks anew: the pending digest never matches, so no answer is ever taken for another question.
    expect(third.json.result.resultType).toBe('input_required');
  });
});
