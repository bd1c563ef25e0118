import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, defineView, type Logger } from '../../src/index.ts';
import { createMcpServer, type McpServerOptions } from '../../src/faces/lambda.ts';
import { memoryCallState } from '../../src/faces/backend.ts';
import { APPROVAL_META_KEY } from '../../src/contracts/proposal.ts';
import { silentLogger } from '../../src/log.ts';
import {
  callersByName,
  readEvents,
  send,
  serveStreamingServer,
  statelessHeaders,
  statelessMeta,
  type ArrivedEvent,
  type RunningServer,
} from '@mcp-lambda/dev/testing';

// Two clients of one person: the same issuer and subject, tokens issued to different OAuth clients (`alice@app-1`,
// `alice@app-2`; callersByName). What one client holds (its session id, the question asked of it, its cut stream,
// its requestState, its approval proof) does nothing for the other, over the same bytes a client sends; the first
// client's own use still works afterwards. A token that names no client stays bound to issuer and subject.

const FIRST = 'alice@app-1';
const SECOND = 'alice@app-2';
const FORM = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };

/** A promise the test settles by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}
let release = gate();

const tools = [
  defineTool({
    name: 'confirm',
    description: 'Asks for a confirmation and reports the answer',
    timeoutMs: 20_000,
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'Go ahead?', requestedSchema: FORM });
      return `${answer.action} ${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'cut_midway',
    description: 'Cuts its stream, waits for the test, then answers',
    timeoutMs: 20_000,
    handler: async (_args, ctx) => {
      ctx.notify('info', 'before the cut');
      ctx.closeStream();
      await release.opened;
      return 'done after the cut';
    },
  }),
];

const warnings: { message: string; reason?: unknown }[] = [];
const log: Logger = {
  ...silentLogger,
  warn: (message, fields) => void warnings.push({ message, reason: fields?.reason }),
};
const options: McpServerOptions = {
  info: { name: 'client-binding', version: '1.0.0' },
  tools,
  auth: callersByName,
  sessions: { keys: ['client-binding-session-key-000000000000'] },
  callState: memoryCallState(),
  askPollIntervalMs: 20,
  logging: true,
  http: { streamRetryMs: 300 },
};
let server: RunningServer;
beforeAll(async () => {
  server = await serveStreamingServer(options, { log });
});
afterAll(async () => {
  release.open();
  await server?.close();
});

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

/** One POST as `who`, in `session` when given. */
const post = (who: string, body: unknown, session?: string) =>
  fetch(server.url, {
    method: 'POST',
    headers: {
      ...HEADERS,
      authorization: `Bearer ${who}`,
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify(body),
  });

/** A GET as `who` resuming a stream after `lastEventId`. */
const resume = (who: string, session: string, lastEventId: string) =>
  fetch(server.url, {
    headers: {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${who}`,
      'mcp-session-id': session,
      'last-event-id': lastEventId,
    },
  });

/** The session `who` gets at initialize, declaring it can be asked. */
async function sessionOf(who: string): Promise<string> {
  const res = await post(who, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: who, version: '1' },
    },
  });
  await res.text();
  return res.headers.get('mcp-session-id')!;
}

/** A tools/call whose stream is read as it arrives: the first message, and the whole stream's end. */
async function startCall(who: string, session: string, name: string) {
  const res = await post(who, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name } }, session);
  let first!: (event: ArrivedEvent) => void;
  const firstMessage = new Promise<ArrivedEvent>((resolve) => (first = resolve));
  const all = readEvents(res.body!, (event) => event.message && first(event));
  return { firstMessage, all };
}

const statusOf = async (res: Response) => (await res.text(), res.status);

describe('a session id opens only for the client it was issued to', () => {
  it('another client of the same person, and a token naming no client, get 404', async () => {
    const first = await sessionOf(FIRST);
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(await statusOf(await post(SECOND, list, first))).toBe(404);
    expect(await statusOf(await post('alice', list, first))).toBe(404);
    expect(await statusOf(await post(FIRST, list, first))).toBe(200);
    // A token without a client is bound to issuer and subject, as before clients were told apart.
    expect(await statusOf(await post('alice', list, await sessionOf('alice')))).toBe(200);
  });
});

describe("a question asked of one client is answered by that client's answer only", () => {
  it("the second client's answer is refused, with the first's session id or its own; the first's still counts", async () => {
    const [first, second] = [await sessionOf(FIRST), await sessionOf(SECOND)];
    const call = await startCall(FIRST, first, 'confirm');
    const question = (await call.firstMessage).message!;
    expect(question.method).toBe('elicitation/create');
    const reply = { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { ok: false } } };
    expect(await statusOf(await post(SECOND, reply, first))).toBe(404);
    expect(await statusOf(await post(SECOND, reply, second))).toBe(400);
    const own = { ...reply, result: { action: 'accept', content: { ok: true } } };
    expect(await statusOf(await post(FIRST, own, first))).toBe(202);
    const result = (await call.all).find((e) => e.message?.id === 7)!.message!;
    expect(result.result.content[0].text).toBe('accept {"ok":true}');
  });
});

describe('a cut stream resumes for the client that opened it only', () => {
  it('the second client gets 404 with either session; the first resumes to the result', async () => {
    const [first, second] = [await sessionOf(FIRST), await sessionOf(SECOND)];
    release = gate();
    const cutId = (await (await startCall(FIRST, first, 'cut_midway')).all)[0]!.id!;
    release.open();
    expect(await statusOf(await resume(SECOND, first, cutId))).toBe(404);
    warnings.length = 0;
    expect(await statusOf(await resume(SECOND, second, cutId))).toBe(404);
    expect(warnings).toContainEqual({ message: 'stream resumption refused', reason: 'other-caller' });
    const events = await readEvents((await resume(FIRST, first, cutId)).body!);
    expect(events.find((e) => e.message?.id === 7)!.message!.result.content[0].text).toBe(
      'done after the cut',
    );
  });
});

const stateless = createMcpServer({ ...options, callState: undefined });
let rpcId = 100;
/** A 2026-07-28 tools/call as `who`, straight into the server. */
const callStateless = (who: string, params: Record<string, unknown>, capabilities: object = {}) =>
  send(stateless, {
    headers: { ...statelessHeaders('tools/call', params.name as string), authorization: `Bearer ${who}` },
    body: {
      jsonrpc: '2.0',
      id: ++rpcId,
      method: 'tools/call',
      params: {
        ...params,
        _meta: { ...statelessMeta(), 'io.modelcontextprotocol/clientCapabilities': capabilities },
      },
    },
  });

describe('a requestState replays for the client it was sealed for only', () => {
  it("the second client's retry is -32602; the first's completes", async () => {
    const asked = (await callStateless(FIRST, { name: 'confirm' }, { elicitation: {} })).json.result;
    expect(asked.resultType).toBe('input_required');
    const [key] = Object.keys(asked.inputRequests);
    const retry = {
      name: 'confirm',
      inputResponses: { [key!]: { action: 'accept', content: { ok: true } } },
      requestState: asked.requestState,
    };
    const replayed = await callStateless(SECOND, retry, { elicitation: {} });
    expect(replayed.json.error.code).toBe(-32602);
    const own = (await callStateless(FIRST, retry, { elicitation: {} })).json.result;
    expect(own.content[0].text).toBe('accept {"ok":true}');
  });
});

describe('an approval proof serves the client it was proposed to only', () => {
  it("the second client's use is refused and does nothing; the first's acts", async () => {
    const erased: string[] = [];
    const erase = defineTool({
      name: 'erase',
      description: 'Erases.',
      approval: {
        view: defineView({ uri: 'ui://fixture/approval', name: 'approval', html: () => '<!doctype html>' }),
        describe: () => 'Erase.',
      },
      handler: (_args, ctx) => (erased.push(ctx.principal!.clientId!), 'Erased.'),
    });
    const gated = createMcpServer({
      info: { name: 'gated', version: '1' },
      tools: [erase],
      auth: callersByName,
    });
    const as = async (who: string, name: string, args: Record<string, unknown>) =>
      (
        await send(gated, {
          headers: { authorization: `Bearer ${who}` },
          body: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } },
        })
      ).json.result;
    const proposal = (await as(FIRST, 'erase', {}))._meta[APPROVAL_META_KEY];
    const approve = { arguments: proposal.arguments, proof: proposal.proof, decision: 'approve' };
    const second = await as(SECOND, 'erase_approved', approve);
    expect(second.isError).toBe(true);
    expect(second.content[0].text).toMatch(/does not match this call/);
    expect(erased).toEqual([]);
    expect((await as(FIRST, 'erase_approved', approve)).content[0].text).toBe('Erased.');
    expect(erased).toEqual(['app-1']);
  });
});
