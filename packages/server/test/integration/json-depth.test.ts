import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, type Logger } from '../../src/index.ts';
import { type McpServerOptions } from '../../src/faces/lambda.ts';
import { memoryCallState } from '../../src/faces/backend.ts';
import { MAX_JSON_DEPTH } from '../../src/limits.ts';
import { initialize, serveStreamingServer, startCall, type RunningServer } from '@mcp-lambda/dev/testing';

// JSON nested far deeper than the stack allows walking, in every body the server parses, over HTTP behind the
// response-streaming adapter (where answers to mid-call questions arrive): a Parse error that names the limit, no
// ERROR line, and the next request served as ever. One level less than the limit is served.

/** JSON text of arrays nested `depth` levels deep. */
const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const DEEP = 10_000;

const errors: unknown[][] = [];
const log: Logger = {
  debug() {},
  info() {},
  warn() {},
  error: (...line) => void errors.push(line),
};

const FORM = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };
const options: McpServerOptions = {
  info: { name: 'json-depth', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'echo_depth',
      description: 'Says how deep its argument nests',
      inputSchema: { type: 'object', properties: { v: { type: 'array' } }, required: ['v'] },
      handler: ({ v }) => {
        let depth = 0;
        for (let at: unknown = v; Array.isArray(at); at = at[0]) depth++;
        return `depth ${depth}`;
      },
    }),
    defineTool({
      name: 'confirm',
      description: 'Asks for a confirmation and reports the answer',
      timeoutMs: 20_000,
      handler: async (_args, ctx) =>
        (await ctx.elicit({ message: 'Go ahead?', requestedSchema: FORM })).action,
    }),
  ],
  sessions: { keys: ['json-depth-session-key-00000000000000'] },
  callState: memoryCallState(),
  askPollIntervalMs: 50,
};

let server: RunningServer;
beforeAll(async () => {
  server = await serveStreamingServer(options, { log });
});
afterAll(() => server?.close());

const HANDSHAKE = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

/** POSTs exactly `body`; answers with the status, the session header and the JSON (if any). */
async function postRaw(body: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url, { method: 'POST', headers: { ...HANDSHAKE, ...headers }, body });
  const text = await res.text();
  const json = text.startsWith('{') ? JSON.parse(text) : text.startsWith('event:') ? 'sse' : text;
  return { status: res.status, session: res.headers.get('mcp-session-id'), json };
}

const withSession = (session: string | undefined): Record<string, string> =>
  session ? { 'mcp-session-id': session } : {};
const initializeWith = (capabilities: string, id = 0) =>
  `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
  `"capabilities":${capabilities},"clientInfo":{"name":"deep","version":"1.0.0"}}}`;
const callWith = (argument: string) =>
  `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo_depth","arguments":{"v":${argument}}}}`;
const STATELESS_META = (capabilities: string) =>
  `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` +
  `${capabilities},"io.modelcontextprotocol/clientInfo":{"name":"deep","version":"1.0.0"}}`;
const STATELESS_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' };

const PARSE_ERROR = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32700,
    message: `Parse error: the body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
  },
};

/** Whatever came before, the server still answers: a ping gets its empty result. */
async function stillServes() {
  const ping = await postRaw('{"jsonrpc":"2.0","id":"after","method":"ping"}');
  expect(ping).toMatchObject({ status: 200, json: { id: 'after', result: {} } });
  expect(errors).toEqual([]);
}

describe(`a body nesting ${DEEP.toLocaleString('en-US')} levels deep`, () => {
  it.each([
    ['a tools/call argument', callWith(arrays(DEEP)), {}],
    ['a batch (a top-level array)', arrays(DEEP), {}],
    ['_meta', `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"x":${arrays(DEEP)}}}}`, {}],
    [
      'a notification',
      `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"x":${arrays(DEEP)}}}`,
      {},
    ],
    [
      'a 2026-07-28 request (its client capabilities)',
      `{"jsonrpc":"2.0","id":4,"method":"server/discover","params":{"_meta":${STATELESS_META(arrays(DEEP))}}}`,
      STATELESS_HEADERS,
    ],
  ])('in %s is a 400 Parse error naming the limit', async (_where, body, headers) => {
    expect(await postRaw(body, headers)).toMatchObject({ status: 400, json: PARSE_ERROR });
    await stillServes();
  });

  it('in initialize capabilities is refused; a normal initialize afterwards gets its session', async () => {
    const deep = await postRaw(initializeWith(`{"elicitation":${arrays(DEEP)}}`));
    expect(deep).toMatchObject({ status: 400, session: null, json: PARSE_ERROR });
    expect(await initialize(server.url, { elicitation: { form: {} } })).toMatch(/^[\x21-\x7e]+$/);
    await stillServes();
  });

  it('in an answer POST on the streaming API is refused; the right answer still reaches the call', async () => {
    const session = await initialize(server.url, { elicitation: { form: {} } });
    const call = await startCall(server.url, session, 'confirm');
    const question = await call.next();
    const id = JSON.stringify(question.id);
    const deep = await postRaw(`{"jsonrpc":"2.0","id":${id},"result":${arrays(DEEP)}}`, withSession(session));
    expect(deep).toMatchObject({ status: 400, json: PARSE_ERROR });
    const fine = `{"jsonrpc":"2.0","id":${id},"result":{"action":"accept","content":{"ok":true}}}`;
    expect((await postRaw(fine, withSession(session))).status).toBe(202);
    expect((await call.result()).result.content).toEqual([{ type: 'text', text: 'accept' }]);
    await stillServes();
  });
});

describe(`a body nesting exactly ${MAX_JSON_DEPTH} levels (the message is level 1)`, () => {
  it('in a tools/call argument is validated and reaches the tool', async () => {
    const res = await postRaw(callWith(arrays(MAX_JSON_DEPTH - 3)));
    expect(res).toMatchObject({ status: 200, json: { id: 5, result: { content: [{ text: 'depth 97' }] } } });
  });

  it('in initialize capabilities gets a session', async () => {
    const res = await postRaw(initializeWith(`{"elicitation":{"form":{"x":${arrays(MAX_JSON_DEPTH - 5)}}}}`));
    expect(res.status).toBe(200);
    expect(res.session).toMatch(/^[\x21-\x7e]+$/);
  });

  it('in a 2026-07-28 request is served', async () => {
    const meta = STATELESS_META(`{"x":${arrays(MAX_JSON_DEPTH - 5)}}`);
    const res = await postRaw(
      `{"jsonrpc":"2.0","id":4,"method":"server/discover","params":{"_meta":${meta}}}`,
      STATELESS_HEADERS,
    );
    expect(res).toMatchObject({ status: 200, json: { id: 4, result: {} } });
  });

  it('in an answer POST is delivered (and refused by the form, as any answer that does not fit)', async () => {
    const session = await initialize(server.url, { elicitation: { form: {} } });
    const call = await startCall(server.url, session, 'confirm');
    const id = JSON.stringify((await call.next()).id);
    const content = `{"ok":${arrays(MAX_JSON_DEPTH - 3)}}`;
    const body = `{"jsonrpc":"2.0","id":${id},"result":{"action":"accept","content":${content}}}`;
    expect((await postRaw(body, withSession(session))).status).toBe(202);
    expect((await call.result()).result.content[0].text).toContain('could not be used');
    expect(errors).toEqual([]);
  });
});
