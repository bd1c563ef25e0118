import { readEvents, type ArrivedEvent } from './sse.ts';

/**
 * A raw handshake-era client for the asking tests: exact requests, exact answers. It initializes (keeping the
 * session id), starts a tool call whose event stream it reads as the events arrive, and POSTs answers.
 */

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

/** POSTs one JSON-RPC message; `session` adds Mcp-Session-Id. */
export function post(url: string, body: unknown, session?: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, ...(session ? { 'mcp-session-id': session } : {}) },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Initializes with the given capabilities; returns the session id the server issued (or undefined). */
export async function initialize(url: string, capabilities: object): Promise<string | undefined> {
  const res = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1.0.0' } },
  });
  await res.text();
  return res.headers.get('mcp-session-id') ?? undefined;
}

/** A tool call in flight: its events as they arrive, and its end. */
export interface Call {
  /** The next event carrying a message (waits for it). */
  next(): Promise<NonNullable<ArrivedEvent['message']>>;
  /** The call's final response (the event whose id is the call's). */
  result(): Promise<any>;
  /** Closes the connection (a disconnect, not a cancellation). */
  abort(): void;
  status: number;
}

/** Starts `tools/call` and reads its event stream as it arrives. */
export async function startCall(
  url: string,
  session: string | undefined,
  name: string,
  args: object = {},
  id: number | string = 1,
): Promise<Call> {
  const controller = new AbortController();
  const res = await post(
    url,
    { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
    session,
    controller.signal,
  );
  const queue: NonNullable<ArrivedEvent['message']>[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const finished = (
    res.headers.get('content-type')?.startsWith('text/event-stream')
      ? readEvents(res.body!, (event) => {
          if (event.message) queue.push(event.message);
          wake?.();
        })
      : res.json().then((message) => void queue.push(message as NonNullable<ArrivedEvent['message']>))
  )
    .catch(() => undefined)
    .finally(() => {
      ended = true;
      wake?.();
    });
  const next = async () => {
    for (;;) {
      const message = queue.shift();
      if (message) return message;
      if (ended) throw new Error('the stream ended');
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  return {
    status: res.status,
    next,
    async result() {
      for (;;) {
        const message = await next();
        if (message.id === id && !message.method) return message;
      }
    },
    abort: () => {
      controller.abort();
      void finished;
    },
  };
}

/** POSTs the client's answer to a question (a JSON-RPC response). */
export async function answer(url: string, session: string | undefined, id: unknown, result: object) {
  const res = await post(url, { jsonrpc: '2.0', id, result }, session);
  return { status: res.status, body: await res.text() };
}
