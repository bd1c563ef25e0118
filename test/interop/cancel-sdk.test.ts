import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialize, post, startLocalDynamo, type LocalDynamo } from '@mcp-lambda/dev/testing';
import { startAskingInstance, type AskingInstance } from '../support/start-asking-instance.ts';

// A client's cancellation reaching a long call on another instance (streaming API, handshake era): two streaming
// servers in processes of their own share one local DynamoDB table, as Lambda instances share the call state's table.
// Every request goes to the first; every notification (the SDK's notifications/cancelled among them), answer and
// GET to the second, as a load balancer may route them. The call asks nothing, so only its watch can see the
// cancellation (docs/streaming.md "Cancelling a call").

const KEY = 'cancel-interop-session-key-0000000000';
/** The instances watch 200 ms into a call (instead of 10 s), then every second. */
const WATCH_AFTER_MS = 200;
/** Time the watch gets to see a cancellation: its first read, one interval, and slack for a busy machine. */
const SEEN_WITHIN_MS = 8_000;

let dynamo: LocalDynamo;
const instances: AskingInstance[] = [];
/** The JSON-RPC id of each `works_until_cancelled` call, by tag. */
const callIds = new Map<string, string | number>();

type Message = { method?: string; id?: string | number; params?: { arguments?: { tag?: string } } };

/** Requests go to the first instance; notifications, answers and GETs to the second. */
const crossing: typeof fetch = async (input, init) => {
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Message) : undefined;
  const request = body?.method !== undefined && body.id !== undefined;
  const tag = body?.method === 'tools/call' ? body.params?.arguments?.tag : undefined;
  if (tag !== undefined && body?.id !== undefined) callIds.set(tag, body.id);
  return fetch(instances[request ? 0 : 1]!.url, init);
};

beforeAll(async () => {
  dynamo = await startLocalDynamo('cancellations-under-test');
  instances.push(
    ...(await Promise.all([
      startAskingInstance(dynamo, KEY, { streamLogAfterMs: WATCH_AFTER_MS }),
      startAskingInstance(dynamo, KEY, { streamLogAfterMs: WATCH_AFTER_MS }),
    ])),
  );
}, 60_000);

afterAll(async () => {
  for (const { child } of instances) child.kill('SIGTERM');
  await dynamo?.close();
});

async function connect(): Promise<Client> {
  const client = new Client({ name: 'cancel-sdk1', version: '1.0.0' });
  // The response of the cancelled call may still arrive; the client drops it, as it should.
  client.onerror = () => {};
  await client.connect(new StreamableHTTPClientTransport(new URL(instances[0]!.url), { fetch: crossing }));
  return client;
}

/** What the call tagged `tag` saw so far, asked of the instance it runs on. */
async function whatBecameOf(client: Client, tag: string): Promise<{ state: string; reason?: string }> {
  const result = await client.callTool({ name: 'what_became_of', arguments: { tag } });
  return JSON.parse((result.content as { text: string }[])[0]!.text) as { state: string; reason?: string };
}

describe.each([
  { label: 'its stream open', cut: false },
  { label: 'its stream cut (the client resumes on the second instance)', cut: true },
])('a long call on one instance, $label', ({ cut }) => {
  it("stops when the SDK 1.x client cancels it on another instance; another session's cancellation does not stop it", async () => {
    const client = await connect();
    const tag = `call-${cut ? 'cut' : 'open'}-${Date.now()}`;
    try {
      const controller = new AbortController();
      const calling = client
        .callTool({ name: 'works_until_cancelled', arguments: { tag, cut } }, undefined, {
          signal: controller.signal,
          timeout: 60_000,
        })
        .then(
          () => 'answered',
          (error: Error) => error.message,
        );
      while ((await whatBecameOf(client, tag)).state !== 'running') await sleep(50);

      // Another session names the same JSON-RPC id: recorded in its own slot, never in this call's.
      const stranger = (await initialize(instances[1]!.url, {}))!;
      const refused = await post(
        instances[1]!.url,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: callIds.get(tag)! } },
        stranger,
      );
      expect(refused.status).toBe(202);
      // Past the watch's first read and one more: the call still runs.
      await sleep(WATCH_AFTER_MS + 1_500);
      expect(await whatBecameOf(client, tag)).toEqual({ state: 'running' });

      controller.abort('the person changed their mind');
      expect(await calling).toMatch(/the person changed their mind/);
      const started = Date.now();
      let seen = await whatBecameOf(client, tag);
      while (seen.state === 'running' && Date.now() - started < SEEN_WITHIN_MS) {
        await sleep(100);
        seen = await whatBecameOf(client, tag);
      }
      expect(seen).toEqual({
        state: 'cancelled',
        reason: 'cancelled: the client cancelled the request (notifications/cancelled)',
      });
    } finally {
      await client.close();
    }
  }, 30_000);
});
