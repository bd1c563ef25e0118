import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, type Logger, type ToolDefinition } from '../../src/index.ts';
import type { McpServerOptions } from '../../src/faces/lambda.ts';
import { memoryCallState, type CallState } from '../../src/faces/backend.ts';
import { createOAuthAuthenticator } from '../../src/auth/oauth.ts';
import { silentLogger } from '../../src/log.ts';
import { callerOf } from '../../src/call-state/ids.ts';
import { newStreamId } from '../../src/resume/event-ids.ts';
import { MAX_LOG_SPAN } from '../../src/resume/resumable-stream.ts';
import {
  startIssuer,
  type TestIssuer,
  answer,
  initialize,
  post,
  serveServer,
  serveStreamingServer,
  type RunningServer,
  statelessHeaders,
  statelessMeta,
  readEvents,
  type ArrivedEvent,
} from '@mcp-lambda/dev/testing';

// Streams that survive a cut (SEP-1699) over raw HTTP, behind the response-streaming adapter and the local REST API
// emulation: the priming event, ids on every event, a tool that cuts its stream, and the GET with Last-Event-ID that
// resumes it; every refusal, exactly (spec: transports, "Resumability and Redelivery").

/** A promise the test settles by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}
let release = gate();

const tools: ToolDefinition[] = [
  defineTool({
    name: 'cut_midway',
    description: 'Reports progress, cuts its stream, reports again, waits for the test, then answers',
    timeoutMs: 20_000,
    handler: async (_args, ctx) => {
      ctx.notify('info', 'before the cut');
      const cut = ctx.closeStream();
      ctx.notify('info', 'after the cut');
      await release.opened;
      return cut ? 'done after the cut' : 'done without a cut';
    },
  }),
  defineTool({
    name: 'waits',
    description: 'Sends a log message, then waits for the test before it answers',
    timeoutMs: 20_000,
    handler: async (_args, ctx) => {
      ctx.notify('info', 'started');
      await release.opened;
      return ctx.signal.aborted ? 'cancelled' : 'waited';
    },
  }),
  defineTool({
    name: 'chatty_cut',
    description: 'Sends forty log messages, then cuts its stream and answers',
    handler: (_args, ctx) => {
      for (let n = 1; n <= 40; n++) ctx.notify('info', n);
      ctx.closeStream();
      return 'chatted';
    },
  }),
  defineTool({
    name: 'talks',
    description: 'Sends a log message, then answers',
    handler: (_args, ctx) => {
      ctx.notify('info', 'hello');
      return 'spoken';
    },
  }),
];

const KEYS = ['stream-resume-session-key-0000000000000'];
/** A store whose log reads see a clock `skewMs` ahead: a GET that comes after the log expired. */
const store = memoryCallState();
let skewMs = 0;
/** Log writes, counted: what each call costs. */
const writes = { heads: 0, events: 0 };
const { streamLog } = store;
const skewed: CallState = {
  ...store,
  streamLog: {
    ...streamLog,
    readHead: ({ streamId, now }, signal) => streamLog.readHead({ streamId, now: now + skewMs }, signal),
    startLog: (head, signal) => (writes.heads++, streamLog.startLog(head, signal)),
    appendEvent: (...args) => (writes.events++, streamLog.appendEvent(...args)),
  },
};
const warnings: { message: string; reason?: unknown }[] = [];
const log: Logger = {
  ...silentLogger,
  warn: (message, fields) => void warnings.push({ message, reason: fields?.reason }),
};
const options: McpServerOptions = {
  info: { name: 'stream-resume', version: '1.0.0' },
  tools,
  logging: true,
  sessions: { keys: KEYS },
  callState: skewed,
  askPollIntervalMs: 20,
  reserveMs: 100,
  http: { streamRetryMs: 300 },
};

let streaming: RunningServer;
let buffered: RunningServer;
/** A streaming server whose invocations last 2.5 s: a resuming GET closes with a retry before its end. */
let short: RunningServer;
/** A streaming server whose streams start their logs after 100 ms: a connection broken unseen still resumes. */
let logging: RunningServer;
const EVENT_ID = /^([A-Za-z0-9_-]{22})\.(\d+)$/;
const LOGGING = {};
const JSON_POST = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

beforeAll(async () => {
  streaming = await serveStreamingServer(options, { log });
  buffered = await serveServer(options);
  short = await serveStreamingServer(options, { timeoutMs: 2_500, log });
  logging = await serveStreamingServer(
    { ...options, http: { ...options.http, streamLogAfterMs: 100 } },
    { log },
  );
});

afterAll(async () => {
  release.open();
  await Promise.all([streaming?.close(), buffered?.close(), short?.close(), logging?.close()]);
});

/** A GET resuming a stream; `headers` override or remove (undefined) the defaults. */
function resume(url: string, session: string | undefined, lastEventId: string | undefined, headers = {}) {
  const all: Record<string, string | undefined> = {
    accept: 'text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    'mcp-session-id': session,
    'last-event-id': lastEventId,
    ...headers,
  };
  const present = Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined);
  return fetch(url, { headers: Object.fromEntries(present) });
}

/** The events of a stream, read to its end. */
const eventsOf = (response: Response) => readEvents(response.body!);
const positionOf = (event: ArrivedEvent) => Number(EVENT_ID.exec(event.id!)![2]);
const streamOf = (event: ArrivedEvent) => EVENT_ID.exec(event.id!)![1];

/** Calls `cut_midway` and reads its POST stream to the cut. */
async function cutCall(url: string, session: string | undefined) {
  release = gate();
  const res = await post(
    url,
    { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'cut_midway', arguments: {} } },
    session,
  );
  return { res, events: await eventsOf(res) };
}

describe('event ids on the POST streams of the streaming API', () => {
  it('opens a session stream with a priming event (an id, a retry, empty data) and gives every event an id', async () => {
    const session = await initialize(streaming.url, LOGGING);
    const res = await post(
      streaming.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'talks', arguments: {} } },
      session,
    );
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = await eventsOf(res);
    expect(events[0]).toMatchObject({ retry: 300, comment: '' });
    expect(events[0]!.message).toBeUndefined();
    expect(events.map(positionOf)).toEqual([0, 1, 2]);
    expect(new Set(events.map(streamOf)).size).toBe(1);
    expect(events[2]!.message).toMatchObject({ id: 1, result: { content: [{ text: 'spoken' }] } });
  });

  it('names a fresh stream on every request: 128 random bits, never reused', async () => {
    const session = await initialize(streaming.url, LOGGING);
    const call = () =>
      post(
        streaming.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'talks' } },
        session,
      );
    const [a, b] = await Promise.all([call(), call()]);
    const [first, second] = [(await eventsOf(a))[0]!, (await eventsOf(b))[0]!];
    expect(streamOf(first)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(streamOf(first)).not.toBe(streamOf(second));
  });

  it('gives no ids to the stream of a call whose id is too long to repeat in a log (more than 256 characters)', async () => {
    const session = await initialize(streaming.url, LOGGING);
    const id = 'x'.repeat(257);
    const res = await post(
      streaming.url,
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'talks' } },
      session,
    );
    const events = await eventsOf(res);
    expect(events.map((e) => e.message?.id ?? e.message?.method)).toEqual(['notifications/message', id]);
    for (const event of events) expect(event.id).toBeUndefined();
  });

  it('gives 2026-07-28 streams no ids: that revision has no GET to resume from', async () => {
    const res = await fetch(streaming.url, {
      method: 'POST',
      headers: { ...JSON_POST, ...statelessHeaders('tools/call', 'talks') },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'talks',
          arguments: {},
          _meta: { ...statelessMeta(), 'io.modelcontextprotocol/logLevel': 'info' },
        },
      }),
    });
    const events = await eventsOf(res);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.id).toBeUndefined();
  });
});

describe('a stream cut mid-call, resumed with GET and Last-Event-ID', () => {
  it('ends the POST stream at the cut, without the response, and resumes it from the priming event', async () => {
    const session = await initialize(streaming.url, LOGGING);
    const { events } = await cutCall(streaming.url, session);
    expect(events.map(positionOf)).toEqual([0, 1]);
    expect(events[1]!.message?.params.data).toBe('before the cut');
    release.open();
    const res = await resume(streaming.url, session, events[0]!.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const resumed = await eventsOf(res);
    expect(resumed[0]).toMatchObject({ retry: 300 });
    const messages = resumed.filter((e) => e.message);
    // What the client may have missed before the cut, then what came after it, then the response.
    expect(messages.map(positionOf)).toEqual([1, 2, 3]);
    expect(messages.map((e) => streamOf(e))).toEqual(Array(3).fill(streamOf(events[0]!)));
    expect(messages[1]!.message?.params.data).toBe('after the cut');
    expect(messages[2]!.message).toMatchObject({
      id: 'c1',
      result: { content: [{ text: 'done after the cut' }] },
    });
  });

  it('replays only what follows the id, and waits for events still to come', async () => {
    const session = await initialize(streaming.url, LOGGING);
    const { events } = await cutCall(streaming.url, session);
    const res = await resume(streaming.url, session, events[1]!.id);
    const reading = eventsOf(res);
    setTimeout(release.open, 150);
    const messages = (await reading).filter((e) => e.message);
    expect(messages.map(positionOf)).toEqual([2, 3]);
    expect(messages[1]!.message?.result.content[0].text).toBe('done after the cut');
  });

  it('keeps the call going when the client goes away: a disconnect is not a cancellation', async () => {
    const session = await initialize(streaming.url, LOGGING);
    release = gate();
    const client = new AbortController();
    const res = await fetch(streaming.url, {
      method: 'POST',
      headers: { ...JSON_POST, 'mcp-session-id': session! },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'c2', method: 'tools/call', params: { name: 'waits' } }),
      signal: client.signal,
    });
    let lastId: string | undefined;
    await readEvents(res.body!, (event) => {
      lastId = event.id ?? lastId;
      if (event.message) client.abort();
    }).catch(() => undefined);
    expect(positionOf({ at: 0, id: lastId! })).toBe(1);
    // A client waits `retry` before it resumes: by then the server has seen the disconnect and started the log.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release.open();
    const messages = (await eventsOf(await resume(streaming.url, session, lastId))).filter((e) => e.message);
    expect(messages.map(positionOf)).toEqual([2]);
    expect(messages[0]!.message).toMatchObject({ id: 'c2', result: { content: [{ text: 'waited' }] } });
  });

  it('writes nothing for a call that ends with its stream intact, and a head plus one item per event after a cut', async () => {
    const session = await initialize(streaming.url, LOGGING);
    writes.heads = writes.events = 0;
    const res = await post(
      streaming.url,
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'talks' } },
      session,
    );
    expect((await eventsOf(res)).length).toBe(3);
    expect(writes).toEqual({ heads: 0, events: 0 });
    const { events } = await cutCall(streaming.url, session);
    release.open();
    await eventsOf(await resume(streaming.url, session, events[1]!.id));
    // The head holds what was sent before the cut; then "after the cut" and the response.
    expect(writes).toEqual({ heads: 1, events: 2 });
  });

  it('resumes a stream whose connection broke unseen, once it has been open long enough to log', async () => {
    const session = await initialize(logging.url, LOGGING);
    release = gate();
    const client = new AbortController();
    const res = await fetch(logging.url, {
      method: 'POST',
      headers: { ...JSON_POST, 'mcp-session-id': session! },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'c3', method: 'tools/call', params: { name: 'waits' } }),
      signal: client.signal,
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const lastId = /id: (\S+)\nevent: message/.exec(first)?.[1] ?? /id: (\S+)\n/.exec(first)![1]!;
    await new Promise((resolve) => setTimeout(resolve, 250));
    // The POST stream is still open as far as the server knows: the client resumes it anyway.
    const resumed = resume(logging.url, session, lastId).then(eventsOf);
    setTimeout(release.open, 100);
    const messages = (await resumed).filter((e) => e.message);
    expect(messages.at(-1)!.message).toMatchObject({ id: 'c3', result: { content: [{ text: 'waited' }] } });
    client.abort();
  });

  it('closes a resumed stream with a fresh retry before its own deadline; the next GET gets the rest', async () => {
    const session = await initialize(short.url, LOGGING);
    const { events } = await cutCall(short.url, session);
    const first = await eventsOf(await resume(short.url, session, events[1]!.id));
    expect(first.at(-1)).toMatchObject({ retry: 300 });
    expect(first.some((e) => e.message?.result)).toBe(false);
    const lastSeen = first.filter((e) => e.id).at(-1)?.id ?? events[1]!.id;
    release.open();
    const second = (await eventsOf(await resume(short.url, session, lastSeen))).filter((e) => e.message);
    expect(second.at(-1)!.message?.result.content[0].text).toBe('done after the cut');
  });
});

describe('a GET that cannot resume', () => {
  let session: string | undefined;
  let cutId: string;
  beforeAll(async () => {
    session = await initialize(streaming.url, LOGGING);
    const { events } = await cutCall(streaming.url, session);
    cutId = events[0]!.id!;
    release.open();
  });

  it('refuses another session, with a valid id, as an unknown stream (404), and logs why', async () => {
    const other = await initialize(streaming.url, LOGGING);
    warnings.length = 0;
    const res = await resume(streaming.url, other, cutId);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: { code: -32000, message: expect.stringMatching(/^Not found/) },
    });
    expect(warnings).toContainEqual({ message: 'stream resumption refused', reason: 'other-caller' });
  });

  it.each([
    ['an unknown stream', () => `${'A'.repeat(22)}.0`, 404, 'unknown'],
    ['a log that expired', () => cutId, 404, 'unknown'],
  ])('refuses %s (404)', async (name, id, status, reason) => {
    skewMs = name === 'a log that expired' ? 60 * 60_000 : 0;
    warnings.length = 0;
    const res = await resume(streaming.url, session, id());
    skewMs = 0;
    expect(res.status).toBe(status);
    expect(warnings).toContainEqual({ message: 'stream resumption refused', reason });
  });

  it('refuses a resume from the response (the stream has ended) and from past any position it can reach (404)', async () => {
    const { events } = await cutCall(streaming.url, session);
    release.open();
    const all = await eventsOf(await resume(streaming.url, session, events[0]!.id));
    const response = all.filter((e) => e.message).at(-1)!;
    expect(response.message?.result).toBeDefined();
    warnings.length = 0;
    const ended = await resume(streaming.url, session, response.id);
    expect(ended.status).toBe(404);
    expect(((await ended.json()) as { error: { message: string } }).error.message).toMatch(/has ended/);
    const [streamId] = response.id!.split('.');
    // The cut came after one event: the log starts at 2 and reaches at most MAX_LOG_SPAN further.
    expect((await resume(streaming.url, session, `${streamId}.${2 + MAX_LOG_SPAN}`)).status).toBe(404);
    expect(warnings.map((w) => w.reason)).toEqual(['ended', 'beyond-log']);
  });

  it('ends a resumed stream with an error for the call when the call ended without its response in the log', async () => {
    // A log as an instance leaves it when it stops mid-call: the head, no response, the call's deadline past.
    const streamId = newStreamId();
    const now = Date.now();
    const head = { streamId, caller: callerOf(session!, undefined), callId: 'lost-1', sent: [], next: 1 };
    await store.streamLog.startLog({ ...head, ends: now - 10_000, until: now + 60_000 });
    const events = (await eventsOf(await resume(streaming.url, session, `${streamId}.0`))).filter(
      (e) => e.message,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.id).toBeUndefined();
    expect(events[0]!.message).toMatchObject({
      id: 'lost-1',
      error: { code: -32603, message: expect.stringMatching(/result is lost; call the tool again/) },
    });
  });

  it('refuses a resume from before what the log kept (404): the client would miss events', async () => {
    const res = await post(
      streaming.url,
      { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'chatty_cut' } },
      session,
    );
    const events = await eventsOf(res);
    expect(events).toHaveLength(41);
    warnings.length = 0;
    expect((await resume(streaming.url, session, events[3]!.id)).status).toBe(404);
    expect(warnings).toContainEqual({ message: 'stream resumption refused', reason: 'before-log' });
    const kept = (await eventsOf(await resume(streaming.url, session, events[8]!.id))).filter(
      (e) => e.message,
    );
    expect(kept.map(positionOf)).toEqual([...Array.from({ length: 32 }, (_, i) => i + 9), 41]);
  });

  it.each([
    ['a garbled id', 'not-an-id<script>'],
    ['an id with a bad position', `${'A'.repeat(22)}.01`],
    ['an id far too long', `${'A'.repeat(22)}.${'9'.repeat(2_000)}`],
  ])('refuses %s (400) without echoing it', async (_name, id) => {
    const res = await resume(streaming.url, session, id);
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toMatch(/Last-Event-ID is not an event id of this server/);
    expect(text).not.toContain(id.slice(0, 12));
  });

  it.each([
    ['without Last-Event-ID (no standalone stream)', { 'last-event-id': undefined }, 405],
    ['in 2026-07-28, which has no GET stream', { 'mcp-protocol-version': '2026-07-28' }, 405],
    ['with an unsupported protocol version', { 'mcp-protocol-version': '1999-01-01' }, 400],
    ['without a session id', { 'mcp-session-id': undefined }, 400],
    ['with a session id that does not open', { 'mcp-session-id': 'forged' }, 404],
    ['that does not accept an event stream', { accept: 'application/json' }, 406],
  ])('answers a GET %s with %s', async (_name, headers, status) => {
    const res = await resume(streaming.url, session, cutId, headers);
    expect(res.status).toBe(status);
    if (status === 405) expect(res.headers.get('allow')).toBe('POST');
    const body = (await res.json()) as { error: { code: number } };
    expect(body.error.code).toBe(status === 404 ? -32001 : -32000);
  });

  it('answers 405 on the HTTP API, which buffers every response and has nothing to resume', async () => {
    const res = await resume(buffered.url, session, cutId);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('keeps serving after every refusal', async () => {
    const res = await answer(streaming.url, session, 'x', {});
    expect(res.status).toBe(400);
    expect((await resume(streaming.url, session, cutId)).status).toBe(200);
  });
});

describe('resuming with authorization on: the token proves the caller, the log is bound to it', () => {
  const RESOURCE = 'https://mcp.example.com/mcp';
  let issuer: TestIssuer;
  let guarded: RunningServer;
  beforeAll(async () => {
    issuer = await startIssuer({ audience: RESOURCE, scope: 'mcp' });
    const auth = createOAuthAuthenticator({
      issuer: issuer.issuer,
      resource: RESOURCE,
      requiredScopes: ['mcp'],
      resourceName: 'Resume fixture',
    });
    guarded = await serveStreamingServer({ ...options, auth }, { log });
  });
  afterAll(async () => {
    await guarded?.close();
    await issuer?.close();
  });

  /** A raw handshake-era request with a bearer token. */
  const send = (token: string, body: unknown, session?: string) =>
    fetch(guarded.url, {
      method: 'POST',
      headers: {
        ...JSON_POST,
        authorization: `Bearer ${token}`,
        ...(session ? { 'mcp-session-id': session } : {}),
      },
      body: JSON.stringify(body),
    });
  async function sessionOf(token: string): Promise<string> {
    const res = await send(token, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await res.text();
    return res.headers.get('mcp-session-id')!;
  }

  it("answers only the caller who opened the stream: no token 401, another's token 404", async () => {
    const [alice, bob] = [await issuer.token({ sub: 'alice' }), await issuer.token({ sub: 'bob' })];
    const [aliceSession, bobSession] = [await sessionOf(alice), await sessionOf(bob)];
    release = gate();
    const res = await send(
      alice,
      { jsonrpc: '2.0', id: 'a1', method: 'tools/call', params: { name: 'cut_midway' } },
      aliceSession,
    );
    const cutId = (await eventsOf(res))[0]!.id!;
    release.open();
    const get = (token: string | undefined, session: string) =>
      resume(guarded.url, session, cutId, token ? { authorization: `Bearer ${token}` } : {});
    expect((await get(undefined, aliceSession)).status).toBe(401);
    // Alice's session does not open for Bob; Bob's own session does not own Alice's stream.
    const stolenSession = await get(bob, aliceSession);
    expect(stolenSession.status).toBe(404);
    expect(((await stolenSession.json()) as { error: { code: number } }).error.code).toBe(-32001);
    warnings.length = 0;
    expect((await get(bob, bobSession)).status).toBe(404);
    expect(warnings).toContainEqual({ message: 'stream resumption refused', reason: 'other-caller' });
    const own = (await eventsOf(await get(alice, aliceSession))).filter((e) => e.message);
    expect(own.at(-1)!.message).toMatchObject({
      id: 'a1',
      result: { content: [{ text: 'done after the cut' }] },
    });
  });
});
