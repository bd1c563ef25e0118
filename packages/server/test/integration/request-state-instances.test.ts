import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.ts';
import type { McpServerOptions } from '../../src/faces/lambda.ts';
import { secretsManagerKeys } from '../../src/faces/aws.ts';
import type { SessionKeySource } from '../../src/faces/backend.ts';
import {
  startFakeAws,
  type FakeAws,
  serveServer,
  serveStreamingServer,
  type RunningServer,
  statelessHeaders,
  statelessMeta,
  readEvents,
} from '@mcp-lambda/dev/testing';

// A deployed endpoint runs many instances: the retry of an inputRequired exchange (2026-07-28, SEP-2322) may reach
// another one than the round that sealed its requestState. Every instance derives the request-state keys from the
// session keys, so any of them opens the state; the exact bytes a client sends, behind both Lambda adapters, with the
// keys fixed (MCP_SESSION_SECRET) or read from a stand-in for Secrets Manager (MCP_SESSION_SECRET_ARN, the stack).

const OLD_KEY = 'request-state-instances-old-key-000000';
const NEW_KEY = 'request-state-instances-new-key-000000';
const OTHER_KEY = 'request-state-instances-other-key-0000';
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:mcp-sessions-AbCdEf';
const NAME = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
  required: ['name'],
};
const COLOR = {
  type: 'object' as const,
  properties: { color: { type: 'string' as const } },
  required: ['color'],
};

const tools = [
  defineTool({
    name: 'greet',
    description: 'Asks a name and a colour, one round each, then greets',
    handler: async (_args, ctx) => {
      const person = await ctx.elicit({ message: 'Your name?', requestedSchema: NAME });
      const colour = await ctx.elicit({ message: 'Your colour?', requestedSchema: COLOR });
      return `${person.content!.name} likes ${colour.content!.color}`;
    },
  }),
];

type Serve = (options: McpServerOptions) => Promise<RunningServer>;
type KeyStore = 'fixed keys (MCP_SESSION_SECRET)' | 'Secrets Manager (MCP_SESSION_SECRET_ARN)';

let aws: FakeAws;
/** What the stand-in for Secrets Manager holds: the tests rotate it. */
const secrets: Record<string, string> = {};
const running: RunningServer[] = [];

beforeAll(async () => {
  aws = await startFakeAws(secrets);
});

afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await aws?.close();
});

/** The session keys of one instance: the strings themselves, or the secret the stack creates, read on first need. */
function keySource(store: KeyStore, keys: readonly string[], arn: string): SessionKeySource {
  if (store === 'fixed keys (MCP_SESSION_SECRET)') return keys;
  secrets[arn] = keys.join(',');
  return secretsManagerKeys(arn, {
    endpoint: aws.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
}

async function instance(serve: Serve, keys: SessionKeySource): Promise<RunningServer> {
  const server = await serve({
    info: { name: 'request-state-instances', version: '1.0.0' },
    tools,
    sessions: { keys },
  });
  running.push(server);
  return server;
}

/** POSTs one 2026-07-28 `tools/call` of `greet`; reads the JSON-RPC answer from JSON or an event stream. */
async function callGreet(server: RunningServer, extra: Record<string, unknown> = {}) {
  const _meta = { ...statelessMeta(), 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  const res = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...statelessHeaders('tools/call', 'greet'),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'greet', arguments: {}, _meta, ...extra },
    }),
  });
  const json = res.headers.get('content-type')?.startsWith('text/event-stream')
    ? (await readEvents(res.body!)).at(-1)!.message
    : await res.json();
  return { status: res.status, json: json as any };
}

const answered = (key: string, content: Record<string, string>, requestState: string) => ({
  inputResponses: { [key]: { action: 'accept', content } },
  requestState,
});

describe.each([
  ['buffered (HTTP API)', serveServer],
  ['streaming (REST API)', serveStreamingServer],
] as const)('requestState across instances, %s adapter', (_adapter, serve) => {
  describe.each<KeyStore>(['fixed keys (MCP_SESSION_SECRET)', 'Secrets Manager (MCP_SESSION_SECRET_ARN)'])(
    'session keys as %s',
    (store) => {
      const arn = (label: string) =>
        `${SECRET_ARN}-${_adapter.split(' ')[0]}-${store.split(' ')[0]}-${label}`;

      it('serves each round on another instance: round 1 on A, the retry on B, the last on A', async () => {
        const reads = aws.calls.length;
        const a = await instance(serve, keySource(store, [OLD_KEY], arn('rounds')));
        const b = await instance(serve, keySource(store, [OLD_KEY], arn('rounds')));
        const first = await callGreet(a);
        expect(first.status).toBe(200);
        expect(first.json.result).toMatchObject({
          resultType: 'input_required',
          inputRequests: { 'ask-0': { method: 'elicitation/create', params: { message: 'Your name?' } } },
        });
        const second = await callGreet(b, answered('ask-0', { name: 'Ada' }, first.json.result.requestState));
        expect(second.json.result).toMatchObject({
          resultType: 'input_required',
          inputRequests: { 'ask-1': { params: { message: 'Your colour?' } } },
        });
        const third = await callGreet(
          a,
          answered('ask-1', { color: 'green' }, second.json.result.requestState),
        );
        expect(third.json.result).toMatchObject({
          resultType: 'complete',
          content: [{ type: 'text', text: 'Ada likes green' }],
        });
        // Each instance read the secret store once, on its first state, not before.
        if (store !== 'fixed keys (MCP_SESSION_SECRET)')
          expect(aws.calls.slice(reads)).toEqual([
            'secretsmanager.GetSecretValue',
            'secretsmanager.GetSecretValue',
          ]);
      });

      it('opens a state sealed before a rotation on an instance that holds the new key in front', async () => {
        const before = await instance(serve, keySource(store, [OLD_KEY], arn('rotation')));
        const first = await callGreet(before);
        const rotated = await instance(serve, keySource(store, [NEW_KEY, OLD_KEY], arn('rotation')));
        const second = await callGreet(
          rotated,
          answered('ask-0', { name: 'Ada' }, first.json.result.requestState),
        );
        expect(second.json.result.resultType).toBe('input_required');
        // The new key seals: an instance that dropped the old key still opens the next round.
        const after = await instance(serve, keySource(store, [NEW_KEY], arn('rotation')));
        const third = await callGreet(
          after,
          answered('ask-1', { color: 'red' }, second.json.result.requestState),
        );
        expect(third.json.result.content).toEqual([{ type: 'text', text: 'Ada likes red' }]);
        const dropped = await callGreet(
          after,
          answered('ask-0', { name: 'Ada' }, first.json.result.requestState),
        );
        expect(dropped.json.error.code).toBe(-32602);
      });

      it('refuses with -32602 a state sealed under another secret, and keeps serving', async () => {
        const a = await instance(serve, keySource(store, [OLD_KEY], arn('sealer')));
        const foreign = await instance(serve, keySource(store, [OTHER_KEY], arn('foreign')));
        const first = await callGreet(a);
        const retried = await callGreet(
          foreign,
          answered('ask-0', { name: 'Ada' }, first.json.result.requestState),
        );
        expect(retried.status).toBe(200);
        expect(retried.json).toMatchObject({
          jsonrpc: '2.0',
          id: 7,
          error: {
            code: -32602,
            message: expect.stringMatching(
              /requestState is invalid or expired.*retry the original request without it/,
            ),
          },
        });
        expect((await callGreet(foreign)).json.result.resultType).toBe('input_required');
      });
    },
  );

  it('answers -32603 saying the keys could not be read while the secret store fails, and reads it again on the retry', async () => {
    const arn = `${SECRET_ARN}-unreadable-${_adapter.split(' ')[0]}`;
    const unreadable = await instance(
      serve,
      keySource('Secrets Manager (MCP_SESSION_SECRET_ARN)', [OLD_KEY], arn),
    );
    delete secrets[arn];
    const res = await callGreet(unreadable);
    expect(res.status).toBe(200);
    expect(res.json.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        /requestState cannot be sealed right now: the keys .* could not be read; retry/,
      ),
    });
    secrets[arn] = OLD_KEY;
    expect((await callGreet(unreadable)).json.result.resultType).toBe('input_required');
  });
});
