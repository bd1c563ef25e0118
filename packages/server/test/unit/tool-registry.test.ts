import { describe, expect, it } from 'vitest';
import { defineTool, ToolError, type ToolDefinition } from '../../src/index.ts';
import { silentLogger, type Logger } from '../../src/log.ts';
import { ErrorCode, McpError } from '../../src/protocol/errors.ts';
import type { CallToolResult } from '../../src/protocol/types.ts';
import { ToolRegistry, type CallContext } from '../../src/tools/registry.ts';

const noop = () => undefined;
const tool = (overrides: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name: 't',
  description: 'a tool',
  handler: () => 'ok',
  ...overrides,
});
const ctx = (log: Logger = silentLogger): CallContext => ({
  requestId: 'req-123',
  closeStream: () => false,
  era: 'handshake',
  protocolVersion: '2025-06-18',
  log,
  progress: noop,
  notify: noop,
  store: async () => {
    throw new Error('no storage');
  },
});
const registry = (defs: ToolDefinition[], defaultTimeoutMs = 1_000) =>
  new ToolRegistry(defs, { defaultTimeoutMs });
const call = async (def: ToolDefinition, args: unknown = {}, remainingMs?: number, log?: Logger) =>
  (await registry([def]).call(def.name, args, ctx(log), remainingMs)) as CallToolResult;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('tool definitions are checked when the server is created (spec "Tools": tool names, schemas, annotations)', () => {
  it.each(['a', 'get_weather', 'A-b_c.d', 'x'.repeat(128)])('accepts the name %j', (name) => {
    expect(() => registry([tool({ name })])).not.toThrow();
  });

  it.each(['', 'has space', 'x'.repeat(129), 'café', 'a/b', 'a:b'])('refuses the name %j', (name) => {
    expect(() => registry([tool({ name })])).toThrow(/must be 1-128 characters/);
  });

  it('refuses two tools with the same name', () => {
    expect(() => registry([tool(), tool()])).toThrow(/"t" is defined twice/);
  });

  it('refuses a tool without a handler', () => {
    expect(() => registry([tool({ handler: undefined as never })])).toThrow(/no handler/);
  });

  it.each([
    'http://json-schema.org/draft-07/schema#',
    'https://json-schema.org/draft/2019-09/schema',
    'https://example.com/my-dialect',
  ])('refuses an inputSchema in the unsupported dialect %s', ($schema) => {
    expect(() => registry([tool({ inputSchema: { $schema, type: 'object' } })])).toThrow(
      /unsupported dialect/,
    );
  });

  it('refuses an outputSchema in an unsupported dialect', () => {
    const outputSchema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' };
    expect(() => registry([tool({ outputSchema })])).toThrow(/outputSchema uses unsupported dialect/);
  });

  it.each(['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#'])(
    'accepts the 2020-12 dialect named as %s',
    ($schema) => {
      expect(() => registry([tool({ inputSchema: { $schema, type: 'object' } })])).not.toThrow();
    },
  );

  it.each([
    ['a string root', { type: 'string' }],
    ['a root without a type', { properties: {} }],
    ['an array root', { type: 'array' }],
  ])('refuses an inputSchema with %s', (_name, inputSchema) => {
    expect(() => registry([tool({ inputSchema })])).toThrow(/"type": "object" at the root/);
  });

  it('refuses an outputSchema whose root is not an object', () => {
    expect(() => registry([tool({ outputSchema: { type: 'string' } })])).toThrow(/outputSchema must have/);
  });

  it('refuses an invalid x-mcp-header declaration', () => {
    const inputSchema = { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } };
    expect(() => registry([tool({ inputSchema })])).toThrow(/x-mcp-header/);
  });
});

describe('tools/list shape', () => {
  it('lists tools in definition order with the spec default inputSchema', () => {
    const listed = registry([tool({ name: 'b' }), tool({ name: 'a' })]).listed;
    expect(listed.map((t) => t.name)).toEqual(['b', 'a']);
    expect(listed[0]).toEqual({
      name: 'b',
      description: 'a tool',
      inputSchema: { type: 'object', additionalProperties: false },
    });
  });

  it('carries title, outputSchema, annotations, icons and _meta, never the handler or the time budget', () => {
    const def = tool({
      title: 'T',
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png' }],
      _meta: { 'example.com/x': 1 },
      timeoutMs: 5,
    });
    expect(registry([def]).listed[0]).toEqual({
      name: 't',
      title: 'T',
      description: 'a tool',
      inputSchema: { type: 'object', additionalProperties: false },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png' }],
      _meta: { 'example.com/x': 1 },
    });
  });
});

describe('tools/call (spec "Tools": results and error handling)', () => {
  const divide = defineTool({
    name: 'divide',
    description: 'a / b',
    inputSchema: {
      type: 'object',
      properties: {
        a: { type: 'number' },
        b: { type: 'number' },
        opts: { type: 'object', properties: { round: { type: 'boolean' } }, required: ['round'] },
      },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    handler: ({ a, b }) => {
      if (b === 0) throw new ToolError('b must not be 0; pass a non-zero divisor');
      return String(a / b);
    },
  });

  it('an unknown tool is a -32602 protocol error', async () => {
    const error = await registry([divide])
      .call('nope', {}, ctx())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it('valid arguments reach the handler', async () => {
    expect(await call(divide, { a: 6, b: 3 })).toEqual({ content: [{ type: 'text', text: '2' }] });
  });

  it.each([
    ['a field of the wrong type', { a: 'six', b: 3 }, '"a" must be number'],
    ['a missing field', { a: 6 }, 'missing required field "b"'],
    ['an unexpected field', { a: 6, b: 3, c: 1 }, 'has unexpected field "c"'],
    ['a missing nested field', { a: 6, b: 3, opts: {} }, '"opts" is missing required field "round"'],
    [
      'a nested field of the wrong type',
      { a: 6, b: 3, opts: { round: 'yes' } },
      '"opts.round" must be boolean',
    ],
  ])('invalid arguments (%s) are an isError result naming the field', async (_name, args, message) => {
    const result = await call(divide, args);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(message);
    expect(text(result)).toContain('Invalid arguments for tool "divide"');
  });

  it('a ToolError message reaches the model as written', async () => {
    expect(await call(divide, { a: 1, b: 0 })).toEqual({
      content: [{ type: 'text', text: 'b must not be 0; pass a non-zero divisor' }],
      isError: true,
    });
  });

  it.each([
    [
      'an Error',
      () => {
        throw new Error('ENOENT: /var/task/secret/config.json');
      },
    ],
    [
      'a rejected promise',
      async () => Promise.reject(new TypeError('at Object.<anonymous> (/opt/app.js:1:1)')),
    ],
    [
      'a thrown string',
      () => {
        throw '/etc/passwd';
      },
    ],
  ])(
    '%s becomes a generic isError naming the request id, and is logged, not shown',
    async (_name, handler) => {
      const logged: unknown[] = [];
      const log = { ...silentLogger, error: (_m: string, ...a: unknown[]) => void logged.push(a) };
      const result = await call(tool({ handler }), {}, undefined, log);
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('request id req-123');
      expect(text(result)).not.toMatch(/\/var|\/opt|\/etc|ENOENT|at Object/);
      expect(logged).toHaveLength(1);
    },
  );

  it('a tool over its own time budget is stopped and told so', async () => {
    let aborted = false;
    const hang = tool({
      timeoutMs: 30,
      handler: (_args, { signal }) =>
        new Promise(() => {
          signal.addEventListener('abort', () => (aborted = true));
        }),
    });
    const result = await call(hang);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('time budget of 30 ms');
    expect(aborted).toBe(true);
  });

  it('a tool that first looks at its signal after the budget ran out finds it aborted', async () => {
    let late: AbortSignal | undefined;
    const slow = tool({
      timeoutMs: 20,
      handler: (_args, ctx) =>
        new Promise((resolve) =>
          setTimeout(() => {
            late = ctx.signal;
            resolve('too late');
          }, 60),
        ),
    });
    expect(text(await call(slow))).toContain('time budget of 20 ms');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(late?.aborted).toBe(true);
  });

  it('the time budget is capped by the invocation time that remains', async () => {
    const hang = tool({ timeoutMs: 10_000, handler: () => new Promise(() => undefined) });
    const started = Date.now();
    const result = await call(hang, {}, 40);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(text(result)).toContain('time budget of 40 ms');
  });

  it('no remaining time at all still answers, with a zero budget', async () => {
    const result = await call(tool({ handler: () => new Promise(() => undefined) }), {}, -5);
    expect(text(result)).toContain('time budget of 0 ms');
  });

  it.each([
    ['an unknown block type', [{ type: 'video', url: 'x' }]],
    ['an image without data', [{ type: 'image', mimeType: 'image/png' }]],
    ['audio without a mimeType', [{ type: 'audio', data: 'AAAA' }]],
    ['a resource_link without a name', [{ type: 'resource_link', uri: 'docs://x' }]],
    ['an embedded resource without text or blob', [{ type: 'resource', resource: { uri: 'docs://x' } }]],
    ['a text block whose text is not a string', [{ type: 'text', text: 5 }]],
  ])('a result with %s becomes an isError result', async (_name, content) => {
    const result = await call(tool({ handler: () => ({ content }) }));
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('produced an invalid result');
  });

  describe('with an outputSchema (spec "Tools": structured content)', () => {
    const outputSchema = {
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
      additionalProperties: false,
    };

    it('a conforming object becomes structuredContent plus its serialized text', async () => {
      expect(await call(tool({ outputSchema, handler: () => ({ n: 3 }) }))).toEqual({
        content: [{ type: 'text', text: '{"n":3}' }],
        structuredContent: { n: 3 },
      });
    });

    it('a full result with structuredContent and no content gains the serialized text', async () => {
      const result = await call(
        tool({ outputSchema, handler: () => ({ content: [], structuredContent: { n: 1 } }) }),
      );
      expect(result).toEqual({ content: [{ type: 'text', text: '{"n":1}' }], structuredContent: { n: 1 } });
    });

    it('output that violates the schema becomes an isError result', async () => {
      const result = await call(tool({ outputSchema, handler: () => ({ n: 'three' }) }));
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('does not match its outputSchema');
      expect(text(result)).toContain('"n" must be integer');
    });

    it('a result without structuredContent becomes an isError result', async () => {
      const result = await call(tool({ outputSchema, handler: () => 'just text' }));
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('no structuredContent');
    });

    it('an isError result from the tool is passed on without output validation', async () => {
      const failed = { content: [{ type: 'text', text: 'upstream down' }], isError: true };
      expect(await call(tool({ outputSchema, handler: () => failed }))).toEqual(failed);
    });
  });
});

describe('cancellation: one signal for a cancelled task and a client that went away', () => {
  const waiter = (seen: { reason?: unknown }) =>
    tool({
      timeoutMs: 10_000,
      handler: (_args, { signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            seen.reason = signal.reason;
            reject(signal.reason);
          }),
        ),
    });

  it('a call whose signal aborts ends at once with an isError giving the reason, and the tool signal fires', async () => {
    const seen: { reason?: unknown } = {};
    const client = new AbortController();
    const def = waiter(seen);
    const pending = registry([def]).call(def.name, {}, ctx(), Infinity, {
      signal: client.signal,
      cancelReason: 'the client closed the connection',
    });
    setTimeout(() => client.abort(), 20);
    const result = (await pending) as CallToolResult;
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Tool "t" was cancelled: the client closed the connection.' }],
    });
    expect((seen.reason as Error).message).toBe('cancelled: the client closed the connection');
  });

  it('without a reason the isError only says the tool was cancelled (a cancelled task)', async () => {
    const seen: { reason?: unknown } = {};
    const task = new AbortController();
    const def = waiter(seen);
    const pending = registry([def]).call(def.name, {}, ctx(), Infinity, { signal: task.signal });
    setTimeout(() => task.abort(new Error('the task is no longer running')), 20);
    expect(text((await pending) as CallToolResult)).toBe('Tool "t" was cancelled.');
    expect(String(seen.reason)).toBe('AbortError: cancelled');
  });

  it('a signal that already aborted never starts the tool', async () => {
    let started = false;
    const def = tool({ handler: () => void (started = true) });
    const result = (await registry([def]).call(def.name, {}, ctx(), Infinity, {
      signal: AbortSignal.abort(),
    })) as CallToolResult;
    expect(text(result)).toBe('Tool "t" was cancelled.');
    expect(started).toBe(false);
  });

  it('a computing tool stops at its next checkpoint once its call was cancelled', async () => {
    const client = new AbortController();
    let rounds = 0;
    let stoppedBy: unknown;
    const def = tool({
      timeoutMs: 10_000,
      handler: async (_args, ctx) => {
        try {
          for (;;) {
            rounds += 1;
            if (rounds === 3) client.abort();
            await ctx.checkpoint();
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        } catch (error) {
          stoppedBy = error;
          throw error;
        }
      },
    });
    const result = (await registry([def]).call(def.name, {}, ctx(), Infinity, {
      signal: client.signal,
    })) as CallToolResult;
    expect(text(result)).toBe('Tool "t" was cancelled.');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((stoppedBy as Error).message).toBe('cancelled');
    expect(rounds).toBeLessThanOrEqual(5);
  });

  it("a call without a timeoutMs of its own gets the caller's default budget, without limit when infinite", async () => {
    const def = tool({
      handler: async (_args, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        await ctx.checkpoint();
        return 'done after the server default';
      },
    });
    const tight = new ToolRegistry([def], { defaultTimeoutMs: 10 });
    expect(text((await tight.call(def.name, {}, ctx())) as CallToolResult)).toContain('time budget of 10 ms');
    const result = await tight.call(def.name, {}, ctx(), Infinity, { defaultTimeoutMs: Infinity });
    expect(text(result as CallToolResult)).toBe('done after the server default');
  });
});
