import { describe, expect, it } from 'vitest';
import type { HttpRequest, StreamedHttpResponse } from '../../src/wire/types.ts';
import { defineTool, inputRequired } from '../../src/index.ts';
import { createMcpServer, type HttpResponse } from '../../src/faces/lambda.ts';
import { silentLogger, type Logger } from '../../src/log.ts';
import { BASE_HEADERS, statelessHeaders, statelessMeta } from '@mcp-lambda/dev/testing';

/** A promise the test settles by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const steps = { first: gate(), second: gate() };
let lastSignal: AbortSignal | undefined;

const server = createMcpServer({
  info: { name: 'unit', version: '1.0.0' },
  logging: true,
  tools: [
    defineTool({
      name: 'stepper',
      description: 'Reports progress, waits for the test, reports again, then answers',
      handler: async (_args, ctx) => {
        lastSignal = ctx.signal;
        ctx.progress(1, 2, 'first half');
        await steps.first.opened;
        ctx.progress(2, 2, 'second half');
        await steps.second.opened;
        return 'done';
      },
    }),
    defineTool({
      name: 'waits_for_cancel',
      description: 'Runs until its signal fires',
      handler: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          lastSignal = ctx.signal;
          ctx.progress(0, 1);
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    }),
    defineTool({
      name: 'quiet',
      description: 'Answers at once without notifications',
      handler: () => 'quiet answer',
    }),
    defineTool({
      name: 'asks',
      description: 'Needs elicitation',
      handler: () =>
        inputRequired({ q: { method: 'elicitation/create', params: { message: '?', requestedSchema: {} } } }),
    }),
    defineTool({
      name: 'reports_then_asks',
      description: 'Reports progress, then needs elicitation',
      handler: (_args, ctx) => {
        ctx.progress(1, 2);
        return inputRequired({
          q: { method: 'elicitation/create', params: { message: '?', requestedSchema: {} } },
        });
      },
    }),
  ],
});

function request(body: unknown, headers: Record<string, string> = {}): HttpRequest {
  return {
    method: 'POST',
    path: '/mcp',
    headers: { ...BASE_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

const call = (name: string, meta: Record<string, unknown> = { progressToken: 't' }) =>
  request({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {}, _meta: meta } });

function streamingCtx(log: Logger = silentLogger, disconnect = new AbortController()) {
  return {
    requestId: 'live-test',
    log,
    streaming: { disconnected: disconnect.signal },
  };
}

const isStreamed = (r: HttpResponse | StreamedHttpResponse): r is StreamedHttpResponse =>
  typeof r.body !== 'string';

/** The messages of SSE text, in order. */
const messagesOf = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)));

describe('the transport with an adapter that can stream', () => {
  it('opens the event stream before the tool finishes and sends each notification as it is emitted', async () => {
    steps.first = gate();
    steps.second = gate();
    const response = await server.handle(call('stepper'), streamingCtx());
    // The handler is still waiting on the first gate: the answer is already here.
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    expect(isStreamed(response)).toBe(true);
    const events = (response as StreamedHttpResponse).body[Symbol.asyncIterator]();
    const first = await events.next();
    expect(messagesOf(first.value as string)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 't', progress: 1, total: 2, message: 'first half' },
      },
    ]);
    steps.first.open();
    const second = await events.next();
    expect(messagesOf(second.value as string)[0].params.progress).toBe(2);
    steps.second.open();
    const last = await events.next();
    expect(messagesOf(last.value as string)).toEqual([
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    expect((await events.next()).done).toBe(true);
  });

  it('answers a tool call that had nothing to send before its result exactly as without streaming', async () => {
    const streamed = await server.handle(call('quiet', {}), streamingCtx());
    const buffered = await server.handle(call('quiet', {}), { requestId: 'live-test', log: silentLogger });
    expect(typeof streamed.body).toBe('string');
    expect(streamed).toEqual(buffered);
    expect(streamed.headers['content-type']).toBe('application/json');
  });

  it('answers a client that accepts only JSON with plain JSON, as without streaming', async () => {
    const req = { ...call('quiet', {}), headers: { ...BASE_HEADERS, accept: 'application/json' } };
    const streamed = await server.handle(req, streamingCtx());
    const buffered = await server.handle(req, { requestId: 'live-test', log: silentLogger });
    expect(streamed).toEqual(buffered);
    expect(streamed.headers['content-type']).toBe('application/json');
  });

  it.each([
    ['tools/list', request({ jsonrpc: '2.0', id: 1, method: 'tools/list' })],
    ['an unknown tool', call('no_such_tool')],
    [
      'a 2026-07-28 unknown method (404)',
      request(
        { jsonrpc: '2.0', id: 1, method: 'no/such', params: { _meta: statelessMeta() } },
        statelessHeaders('no/such'),
      ),
    ],
    ['a parse error (400)', { ...request({}), body: '{' }],
  ])('answers %s exactly as without streaming', async (_name, req) => {
    const streamed = await server.handle(req, streamingCtx());
    const buffered = await server.handle(req, { requestId: 'live-test', log: silentLogger });
    expect(typeof streamed.body).toBe('string');
    expect(streamed).toEqual(buffered);
  });

  it('cancels the tool when the client disconnects: its signal fires and the stream ends', async () => {
    const disconnect = new AbortController();
    const response = (await server.handle(
      call('waits_for_cancel'),
      streamingCtx(silentLogger, disconnect),
    )) as StreamedHttpResponse;
    const events = response.body[Symbol.asyncIterator]();
    await events.next(); // the progress notification: the tool is running
    expect(lastSignal?.aborted).toBe(false);
    disconnect.abort();
    const last = await events.next();
    expect(lastSignal?.aborted).toBe(true);
    expect(messagesOf(last.value as string)[0].result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/cancelled: the client closed the connection/) }],
    });
    expect((await events.next()).done).toBe(true);
  });

  it('opens a quiet stream with a keep-alive comment when the heartbeat comes first, and keeps it alive', async () => {
    // The tool answers only once the test has seen two keep-alives: a timer of its own would race the heartbeat's
    // on a busy machine, where one late turn of the event loop runs both (an interval never catches up).
    const answer = gate();
    const quick = createMcpServer({
      info: { name: 'unit', version: '1.0.0' },
      http: { streamHeartbeatMs: 20 },
      tools: [
        defineTool({
          name: 'slow',
          description: 'Answers when the test lets it',
          handler: async () => {
            await answer.opened;
            return 'late';
          },
        }),
      ],
    });
    const response = (await quick.handle(call('slow', {}), streamingCtx())) as StreamedHttpResponse;
    expect(isStreamed(response)).toBe(true);
    const events = response.body[Symbol.asyncIterator]();
    expect((await events.next()).value).toBe(': keep-alive\n\n');
    // Still quiet: the next heartbeat keeps it alive.
    expect((await events.next()).value).toBe(': keep-alive\n\n');
    answer.open();
    const rest: string[] = [];
    for (let next = await events.next(); !next.done; next = await events.next()) rest.push(next.value);
    expect(messagesOf(rest.at(-1)!)[0].result.content[0].text).toBe('late');
    expect(rest.slice(0, -1).every((c) => c === ': keep-alive\n\n')).toBe(true);
  });

  const asking = (name: string) =>
    request(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name, _meta: { ...statelessMeta(), progressToken: 'p' } },
      },
      statelessHeaders('tools/call', name),
    );

  it('keeps the 400 of a 2026-07-28 missing client capability when nothing was sent before it', async () => {
    const buffered = await server.handle(asking('asks'), { requestId: 'live-test', log: silentLogger });
    expect(buffered.status).toBe(400);
    expect(await server.handle(asking('asks'), streamingCtx())).toEqual(buffered);
  });

  it('sends that error as the final event when progress already opened the stream', async () => {
    const response = (await server.handle(
      asking('reports_then_asks'),
      streamingCtx(),
    )) as StreamedHttpResponse;
    expect(response.status).toBe(200);
    let text = '';
    for await (const chunk of response.body) text += chunk;
    const [progress, last] = messagesOf(text);
    expect(progress.method).toBe('notifications/progress');
    expect(last.error.code).toBe(-32021);
  });

  it('writes the request log line once, when the stream has ended and its work is done, with the tool call audit', async () => {
    const lines: Record<string, unknown>[] = [];
    const log: Logger = { ...silentLogger, info: (message, ...a) => lines.push({ message, ...a[0] }) };
    steps.first = gate();
    steps.second = gate();
    const response = (await server.handle(call('stepper'), streamingCtx(log))) as StreamedHttpResponse;
    expect(lines).toEqual([]);
    steps.first.open();
    steps.second.open();
    for await (const _chunk of response.body);
    await response.after;
    expect(lines).toEqual([
      expect.objectContaining({
        message: 'request',
        rpcMethod: 'tools/call',
        status: 200,
        tool: 'stepper',
        outcome: 'ok',
      }),
    ]);
  });
});
