import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalDynamo, type LocalDynamo, readEvents } from '@mcp-lambda/dev/testing';
import { startAskingInstance, type AskingInstance } from '../support/start-asking-instance.ts';

// Streams that survive a cut (SEP-1699) across instances: two streaming servers in processes of their own share one
// local DynamoDB table, as Lambda instances share the call state's table. Every POST goes to the first, every GET to
// the second, so a stream cut on the first provably resumes on the second from the log (docs/streaming.md). The
// official SDK clients (1.x, and 2.x in the handshake era) resume on their own when they see event ids and a retry;
// a raw client shows the bytes.

let dynamo: LocalDynamo;
const instances: AskingInstance[] = [];
/** Each GET the second instance received: its Last-Event-ID and status. */
const resumed: { lastEventId: string | null; status: number }[] = [];

/** POSTs go to the first instance; GETs (resuming a stream) and answers to the second. */
const crossing: typeof fetch = async (input, init) => {
  const method = init?.method ?? 'GET';
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
  const second = method === 'GET' || (body !== undefined && body.method === undefined);
  const response = await fetch(instances[second ? 1 : 0]!.url, init);
  if (method === 'GET')
    resumed.push({ lastEventId: new Headers(init?.headers).get('last-event-id'), status: response.status });
  return response;
};

beforeAll(async () => {
  dynamo = await startLocalDynamo('streams-under-test');
  instances.push(
    ...(await Promise.all([
      startAskingInstance(dynamo, 'resume-interop-session-key-0000000000'),
      startAskingInstance(dynamo, 'resume-interop-session-key-0000000000'),
    ])),
  );
}, 60_000);

afterAll(async () => {
  for (const { child } of instances) child.kill('SIGTERM');
  await dynamo?.close();
});

/** What the tests need of a connected client, whichever SDK. */
interface Connected {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<any>;
  close(): Promise<void>;
}
const HERE = { action: 'accept' as const, content: { here: true } };

async function sdk1(onLog: (data: unknown) => void): Promise<Connected> {
  const client = new Client(
    { name: 'resume-sdk1', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => onLog(n.params.data));
  client.setRequestHandler(ElicitRequestSchema, async () => HERE);
  await client.connect(new StreamableHTTPClientTransport(new URL(instances[0]!.url), { fetch: crossing }));
  return client;
}

async function sdk2(onLog: (data: unknown) => void): Promise<Connected> {
  const client = new Client2(
    { name: 'resume-sdk2', version: '2.0.0' },
    { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: { form: {} } } },
  );
  client.setNotificationHandler('notifications/message', async (n) => onLog(n.params.data));
  client.setRequestHandler('elicitation/create', async () => HERE);
  await client.connect(new Transport2(new URL(instances[0]!.url), { fetch: crossing }));
  return client as unknown as Connected;
}

describe.each([
  { label: 'SDK 1.x', connect: sdk1 },
  { label: 'SDK 2.x (handshake era)', connect: sdk2 },
])('the official $label client, its stream cut on one instance and resumed on another', ({ connect }) => {
  it('gets every event and the result of a call whose stream the tool cut', async () => {
    const logs: unknown[] = [];
    const client = await connect((data: unknown) => void logs.push(data));
    try {
      resumed.length = 0;
      const result = await client.callTool({ name: 'cut_midway', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'answered after the cut' }]);
      expect(logs).toEqual(['before the cut', 'after the cut']);
      // The standalone GET after initialize is refused (405), the resuming one is served by the second instance.
      const resuming = resumed.filter((r) => r.lastEventId);
      expect(resuming).toEqual([
        { lastEventId: expect.stringMatching(/^[A-Za-z0-9_-]{22}\.1$/), status: 200 },
      ]);
      expect(resumed.filter((r) => !r.lastEventId).map((r) => r.status)).toEqual([405]);
    } finally {
      await client.close();
    }
  });

  it('is asked mid-call on the resumed stream, and its answer reaches the call on the first instance', async () => {
    const client = await connect(() => {});
    try {
      resumed.length = 0;
      const result = await client.callTool({ name: 'cut_then_ask', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'accept {"here":true}' }]);
      expect(resumed.filter((r) => r.lastEventId).map((r) => r.status)).toEqual([200]);
    } finally {
      await client.close();
    }
  });
});

describe('a raw client, its stream cut on one instance and resumed on another', () => {
  const HEADERS = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  async function initialize(): Promise<string> {
    const res = await fetch(instances[0]!.url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    await res.text();
    return res.headers.get('mcp-session-id')!;
  }
  const get = (url: string, session: string, lastEventId: string) =>
    fetch(url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': session,
        'last-event-id': lastEventId,
      },
    });

  it('reads the priming event and the events before the cut on POST, the rest and the result on GET', async () => {
    const session = await initialize();
    const res = await fetch(instances[0]!.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'cut_midway' } }),
    });
    const cut = await readEvents(res.body!);
    expect(cut.map((e) => e.id?.split('.')[1])).toEqual(['0', '1']);
    expect(cut[0]).toMatchObject({ retry: 200 });
    const after = await readEvents((await get(instances[1]!.url, session, cut[1]!.id!)).body!);
    const messages = after.filter((e) => e.message);
    expect(messages.map((e) => e.message?.params?.data ?? e.message?.result.content[0].text)).toEqual([
      'after the cut',
      'answered after the cut',
    ]);
    expect(messages.map((e) => e.id)).toEqual([2, 3].map((n) => `${cut[0]!.id!.split('.')[0]}.${n}`));
  });

  it("refuses another session's GET for that stream on the other instance (404)", async () => {
    const [session, other] = [await initialize(), await initialize()];
    const res = await fetch(instances[0]!.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'cut_midway' } }),
    });
    const cut = await readEvents(res.body!);
    const stolen = await get(instances[1]!.url, other, cut[0]!.id!);
    expect(stolen.status).toBe(404);
    await stolen.text();
    const own = await readEvents((await get(instances[1]!.url, session, cut[0]!.id!)).body!);
    expect(own.at(-1)!.message?.result.content[0].text).toBe('answered after the cut');
  });
});
