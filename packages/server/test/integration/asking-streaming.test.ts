import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carryTraceContext } from '../../src/outbound.ts';
import { defineTool, type ToolDefinition } from '../../src/index.ts';
import type { McpServerOptions } from '../../src/faces/lambda.ts';
import { memoryCallState } from '../../src/faces/backend.ts';
import {
  answer,
  initialize,
  post,
  startCall,
  serveServer,
  serveStreamingServer,
  type RunningServer,
} from '@mcp-lambda/dev/testing';

// Mid-call questions over raw HTTP, behind the response-streaming adapter and the local REST API emulation: the
// exact requests a handshake-era client sends, and the exact answers (spec: transports, "Sending Messages to the
// Server"; client/elicitation).

const FORM = {
  type: 'object' as const,
  properties: { ok: { type: 'boolean' as const } },
  required: ['ok'],
};

const tools: ToolDefinition[] = [
  defineTool({
    name: 'confirm',
    description: 'Asks for a confirmation and reports the answer',
    timeoutMs: 20_000,
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'Go ahead?', requestedSchema: FORM });
      return `${answer.action}${answer.content ? ` ${JSON.stringify(answer.content)}` : ''}`;
    },
  }),
  defineTool({
    name: 'confirm_quickly',
    description: 'Waits at most about a second and a half for the answer',
    timeoutMs: 2_500,
    handler: async (_args, ctx) => (await ctx.elicit({ message: 'Quick?', requestedSchema: FORM })).action,
  }),
  defineTool({
    name: 'works_until_cancelled',
    description: 'Says it is working, then works until its signal fires (15 s at most), asking nothing',
    timeoutMs: 20_000,
    handler: async (_args, ctx) => {
      ctx.notify('info', 'working');
      await new Promise((resolve) => {
        ctx.signal.addEventListener('abort', resolve, { once: true });
        setTimeout(resolve, 15_000);
      });
      return ctx.signal.aborted ? 'stopped' : 'finished';
    },
  }),
];

const KEYS = ['asking-streaming-session-key-000000000'];
const options: McpServerOptions = {
  info: { name: 'asking-streaming', version: '1.0.0' },
  tools,
  sessions: { keys: KEYS },
  callState: memoryCallState(),
  askPollIntervalMs: 50,
  logging: true,
};

let streaming: RunningServer;
let buffered: RunningServer;
let otherKey: RunningServer;
const QUESTION_ID = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/;
const ELICITING = { elicitation: { form: {} } };

beforeAll(async () => {
  streaming = await serveStreamingServer(options);
  buffered = await serveServer(options);
  otherKey = await serveStreamingServer({
    ...options,
    sessions: { keys: ['another-session-key-0000000000000000'] },
  });
});

afterAll(async () => {
  await Promise.all([streaming?.close(), buffered?.close(), otherKey?.close()]);
});

describe('sessions', () => {
  it('initialize issues an Mcp-Session-Id of visible ASCII; a request naming an unknown one is 404', async () => {
    const session = await initialize(streaming.url, ELICITING);
    expect(session).toMatch(/^[\x21-\x7e]+$/);
    const res = await post(otherKey.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });

  it('2026-07-28 requests ignore Mcp-Session-Id and never get one', async () => {
    const res = await fetch(streaming.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
        'mcp-session-id': 'not-a-session',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });
});

describe('a question asked mid-call on the streaming API', () => {
  it('goes out on the call stream with an unguessable id; the answer POST is 202 and the call resumes', async () => {
    const session = await initialize(streaming.url, ELICITING);
    const call = await startCall(streaming.url, session, 'confirm');
    const question = await call.next();
    expect(question).toMatchObject({
      jsonrpc: '2.0',
      method: 'elicitation/create',
      params: { message: 'Go ahead?', requestedSchema: FORM },
    });
    expect(question.id).toMatch(QUESTION_ID);
    expect(
      await answer(streaming.url, session, question.id, { action: 'accept', content: { ok: true } }),
    ).toEqual({
      status: 202,
      body: '',
    });
    expect((await call.result()).result.content).toEqual([{ type: 'text', text: 'accept {"ok":true}' }]);
  });

  it("carries the call's trace context in the question's _meta when tracing is on, and its params unchanged", async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    // What the tracing chunk registers when it loads: the current context's W3C fields.
    carryTraceContext(() => ({ traceparent }));
    try {
      const session = await initialize(streaming.url, ELICITING);
      const call = await startCall(streaming.url, session, 'confirm');
      const question = await call.next();
      expect(question.params).toEqual({
        message: 'Go ahead?',
        requestedSchema: FORM,
        _meta: { traceparent },
      });
      await answer(streaming.url, session, question.id, { action: 'accept', content: { ok: true } });
      expect((await call.result()).result.content[0].text).toBe('accept {"ok":true}');
    } finally {
      carryTraceContext(undefined);
    }
  });

  it("gives the tool a decline as the person's answer", async () => {
    const session = await initialize(streaming.url, ELICITING);
    const call = await startCall(streaming.url, session, 'confirm');
    const question = await call.next();
    expect((await answer(streaming.url, session, question.id, { action: 'decline' })).status).toBe(202);
    expect((await call.result()).result.content[0].text).toBe('decline');
  });

  it('refuses a replay, another session, an unknown id and a session sealed by another key; the call goes on', async () => {
    const session = await initialize(streaming.url, ELICITING);
    const intruder = await initialize(streaming.url, ELICITING);
    const foreign = await initialize(otherKey.url, ELICITING);
    const call = await startCall(streaming.url, session, 'confirm');
    const question = await call.next();
    const [slot] = String(question.id).split('.');
    const accept = { action: 'accept', content: { ok: true } };
    expect((await answer(streaming.url, intruder, question.id, accept)).status).toBe(400);
    expect((await answer(streaming.url, session, `${slot}.${'A'.repeat(22)}`, accept)).status).toBe(400);
    expect((await answer(streaming.url, session, 7, accept)).status).toBe(400);
    expect((await answer(streaming.url, undefined, question.id, accept)).status).toBe(400);
    expect((await answer(streaming.url, foreign, question.id, accept)).status).toBe(404);
    // The waiting call was not affected: the right answer still lands.
    expect(
      (await answer(streaming.url, session, question.id, { action: 'accept', content: { ok: false } }))
        .status,
    ).toBe(202);
    expect((await call.result()).result.content[0].text).toBe('accept {"ok":false}');
    expect((await answer(streaming.url, session, question.id, accept)).status).toBe(400);
  });

  it('refuses an accepted answer that does not fit the form: the tool ends isError saying why', async () => {
    const session = await initialize(streaming.url, ELICITING);
    const call = await startCall(streaming.url, session, 'confirm');
    const question = await call.next();
    await answer(streaming.url, session, question.id, {
      action: 'accept',
      content: { ok: 'yes', admin: true },
    });
    const { result } = await call.result();
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain('could not be used');
  });

  it('ends the call honestly when nobody answers within the tool budget', async () => {
    const session = await initialize(streaming.url, ELICITING);
    const call = await startCall(streaming.url, session, 'confirm_quickly');
    const question = await call.next();
    const { result } = await call.result();
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^No answer came within \d+ s/);
    expect(
      (await answer(streaming.url, session, question.id, { action: 'accept', content: { ok: true } })).status,
    ).toBe(400);
  });

  it('ends the call when the client cancels it (notifications/cancelled), and refuses a later answer', async () => {
    const session = await initialize(streaming.url, ELICITING);
    const call = await startCall(streaming.url, session, 'confirm', {}, 'call-7');
    const question = await call.next();
    const cancel = await post(
      streaming.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'call-7', reason: 'user' } },
      session,
    );
    expect(cancel.status).toBe(202);
    const { result } = await call.result();
    // In one process the cancellation wakes the call's watch at once: the call itself is cancelled.
    expect(result.content[0].text).toBe(
      'Tool "confirm" was cancelled: the client cancelled the request (notifications/cancelled).',
    );
    expect((await answer(streaming.url, session, question.id, { action: 'decline' })).status).toBe(400);
  });

  it("ends a call that asks nothing when its client cancels it; another session's cancellation does not", async () => {
    const session = (await initialize(streaming.url, ELICITING))!;
    const stranger = (await initialize(streaming.url, ELICITING))!;
    const call = await startCall(streaming.url, session, 'works_until_cancelled', {}, 'call-8');
    expect(await call.next()).toMatchObject({ params: { data: 'working' } });
    const cancelled = (from: string) =>
      post(
        streaming.url,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'call-8' } },
        from,
      );
    expect((await cancelled(stranger)).status).toBe(202);
    const early = await Promise.race([call.result(), sleep(300).then(() => 'still running')]);
    expect(early).toBe('still running');
    expect((await cancelled(session)).status).toBe(202);
    const { result } = await call.result();
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Tool "works_until_cancelled" was cancelled: the client cancelled the request (notifications/cancelled).',
        },
      ],
    });
  });

  it('keeps waiting when the client disconnects (not a cancellation): its answer still reaches the call', async () => {
    const session = await initialize(streaming.url, ELICITING);
    const call = await startCall(streaming.url, session, 'confirm');
    const question = await call.next();
    call.abort();
    // The client resumes the stream (docs/streaming.md) and answers; the call ends with that answer.
    await sleep(100);
    expect((await answer(streaming.url, session, question.id, { action: 'decline' })).status).toBe(202);
    expect((await answer(streaming.url, session, question.id, { action: 'decline' })).status).toBe(400);
  });

  it('passes on the error a client answers with', async () => {
    const session = await initialize(streaming.url, ELICITING);
    const call = await startCall(streaming.url, session, 'confirm');
    const question = await call.next();
    const res = await post(
      streaming.url,
      { jsonrpc: '2.0', id: question.id, error: { code: -32603, message: 'the dialog crashed' } },
      session,
    );
    expect(res.status).toBe(202);
    expect((await call.result()).result.content[0].text).toBe(
      'The client answered the question with an error (-32603): the dialog crashed.',
    );
  });
});

describe('where a client cannot be asked, the ask is refused with the reason', () => {
  it.each([
    [
      'a client that did not declare elicitation',
      async () => ({ url: streaming.url, session: await initialize(streaming.url, { sampling: {} }) }),
      'did not declare the "elicitation" capability',
    ],
    [
      'a request without a session',
      async () => ({ url: streaming.url, session: undefined }),
      'the request carries no session',
    ],
    [
      'the buffered HTTP API',
      async () => ({ url: buffered.url, session: await initialize(buffered.url, ELICITING) }),
      'answered in one piece',
    ],
  ])('%s', async (_label, setup, reason) => {
    const { url, session } = await setup();
    const call = await startCall(url, session, 'confirm');
    const { result } = await call.result();
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain(reason);
  });
});
