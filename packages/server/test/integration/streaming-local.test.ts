import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.ts';
import type { McpServerOptions } from '../../src/faces/lambda.ts';
import {
  BASE_HEADERS,
  serveServer,
  serveStreamingServer,
  type RunningServer,
  readEvents,
  type ArrivedEvent,
} from '@mcp-lambda/dev/testing';

/** The tool's own clock (performance.now(), the same process as the client): when it did what. */
interface ToolTimes {
  started: number;
  firstProgress: number;
  secondProgress: number;
  returned: number;
}

const PAUSE_MS = 300;
let times: ToolTimes | undefined;
/** What the cancellable tool saw (an object, so a test can reset it and read what the tool wrote later). */
const probe: { cancelled?: { signal: AbortSignal; firedAt?: number } } = {};

const options: McpServerOptions = {
  info: { name: 'streaming', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'slow_steps',
      description: 'Reports progress, sleeps, reports again, sleeps, returns',
      handler: async (_args, ctx) => {
        const started = performance.now();
        ctx.progress(1, 2, 'halfway');
        const firstProgress = performance.now();
        await sleep(PAUSE_MS);
        ctx.progress(2, 2, 'almost');
        const secondProgress = performance.now();
        await sleep(PAUSE_MS);
        times = { started, firstProgress, secondProgress, returned: performance.now() };
        return 'finished';
      },
    }),
    defineTool({
      name: 'until_cancelled',
      description: 'Reports progress, then runs until its signal fires',
      handler: (_args, ctx) =>
        new Promise((resolve) => {
          const seen: { signal: AbortSignal; firedAt?: number } = { signal: ctx.signal };
          probe.cancelled = seen;
          ctx.signal.addEventListener('abort', () => {
            seen.firedAt = performance.now();
            resolve('stopped');
          });
          ctx.progress(0, 1, 'started');
        }),
    }),
  ],
};

let streaming: RunningServer;
let buffered: RunningServer;

beforeAll(async () => {
  streaming = await serveStreamingServer(options);
  buffered = await serveServer(options);
});

afterAll(async () => {
  await streaming?.close();
  await buffered?.close();
});

const callBody = (name: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: {}, _meta: { progressToken: 'p' } },
  });

/** Calls a tool over real HTTP and records when the headers and each event arrived. */
async function timedCall(url: string, name: string, signal?: AbortSignal) {
  const sent = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: BASE_HEADERS,
    body: callBody(name),
    ...(signal ? { signal } : {}),
  });
  const headersAt = performance.now();
  return { sent, headersAt, response };
}

const kinds = (events: ArrivedEvent[]) =>
  events.filter((e) => e.message).map((e) => e.message!.method ?? `response ${e.message!.id}`);

describe('response streaming through the Lambda streaming adapter under the local server', () => {
  it('delivers each progress event while the tool runs, before the final response', async () => {
    times = undefined;
    const { headersAt, response } = await timedCall(streaming.url, 'slow_steps');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const events = await readEvents(response.body!);
    expect(kinds(events)).toEqual(['notifications/progress', 'notifications/progress', 'response 1']);
    const [first, second, last] = events.filter((e) => e.message);
    expect(last!.message!.result.content[0].text).toBe('finished');
    const tool = times!;
    // Ordered by the tool's own clock: each event left when the tool emitted it, not when it returned.
    expect(headersAt).toBeLessThan(tool.returned);
    expect(first!.at).toBeGreaterThanOrEqual(tool.firstProgress);
    expect(first!.at).toBeLessThan(tool.returned);
    expect(second!.at).toBeGreaterThanOrEqual(tool.secondProgress);
    expect(second!.at).toBeLessThan(tool.returned);
    expect(last!.at).toBeGreaterThanOrEqual(tool.returned);
  });

  it('while the buffered HTTP API path delivers the same events only with the response', async () => {
    times = undefined;
    const { response } = await timedCall(buffered.url, 'slow_steps');
    expect(response.headers.get('content-length')).not.toBeNull();
    const events = await readEvents(response.body!);
    expect(kinds(events)).toEqual(['notifications/progress', 'notifications/progress', 'response 1']);
    for (const event of events) expect(event.at).toBeGreaterThanOrEqual(times!.returned);
  });

  it('cancels the tool when the client closes the stream: the tool signal fires', async () => {
    delete probe.cancelled;
    const client = new AbortController();
    const { response } = await timedCall(streaming.url, 'until_cancelled', client.signal);
    let closedAt = 0;
    await readEvents(response.body!, (event) => {
      if (event.message?.method === 'notifications/progress') {
        closedAt = performance.now();
        client.abort();
      }
    }).catch((error: Error) => expect(error.name).toBe('AbortError'));
    expect(closedAt).toBeGreaterThan(0);
    const tool = () => probe.cancelled; // written by the tool after this test reset it
    for (let i = 0; i < 100 && !tool()?.signal.aborted; i++) await sleep(10);
    expect(tool()?.signal.aborted).toBe(true);
    expect((tool()?.signal.reason as Error).message).toBe('cancelled: the client closed the connection');
    expect(tool()!.firedAt!).toBeGreaterThanOrEqual(closedAt);
  });

  it('answers JSON-only clients and non-tool requests with complete JSON', async () => {
    const list = await fetch(streaming.url, {
      method: 'POST',
      headers: BASE_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(list.headers.get('content-type')).toBe('application/json');
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(2);
    const get = await fetch(streaming.url, { headers: BASE_HEADERS });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});
