/**
 * Clients of one person signing in through the local bridge of `MCP_AUTH_MODE=oauth npm start`, each registered
 * on its own: the sign-in as a browser does it, the tokens the bridge minted, and raw requests with a client's
 * token (what a client that copied another's session id, question id, event id or requestState sends).
 */
import { browse, MemoryOAuthProvider, readEvents, type ArrivedEvent } from '@mcp-lambda/dev/testing';

export const REDIRECT = 'http://127.0.0.1:53682/callback';

/** The development user's sign-in, from the start-up line that prints it. */
export function signInFrom(startup: readonly string[]): { email: string; password: string } {
  for (const line of startup) {
    const fields = JSON.parse(line) as { message?: string; email?: string; password?: string };
    if (fields.message?.startsWith('local authorization:'))
      return { email: fields.email!, password: fields.password! };
  }
  throw new Error('npm start printed no sign-in');
}

/** The browser leg of a sign-in (consent, then the provider's form): the code the redirect URI receives. */
export async function signIn(provider: MemoryOAuthProvider, user: { email: string; password: string }) {
  const { callback } = await browse(provider.authorizationUrl!.href, { until: REDIRECT, ...user });
  return callback.searchParams;
}

/** The claims of a client's access token (the bridge's JWT, read without checking: the server checks it). */
export function claimsOf(provider: MemoryOAuthProvider): Record<string, unknown> {
  const token = (provider.saved as { access_token: string }).access_token;
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** Raw requests to the endpoint with one client's access token. */
export function rawClient(url: string, provider: MemoryOAuthProvider) {
  const bearer = () => `Bearer ${(provider.saved as { access_token: string }).access_token}`;
  return {
    /** A handshake-era POST in `session`. */
    post: (body: unknown, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: bearer(),
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(body),
      }),
    /** A GET resuming a stream of `session` after `lastEventId`. */
    resume: (session: string, lastEventId: string) =>
      fetch(url, {
        headers: {
          accept: 'text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: bearer(),
          'mcp-session-id': session,
          'last-event-id': lastEventId,
        },
      }),
    /** A 2026-07-28 request, with its headers and envelope. */
    stateless: async (method: string, params: Record<string, unknown>, capabilities: object = {}) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
          authorization: bearer(),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': capabilities,
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
            },
          },
        }),
      });
      const type = res.headers.get('content-type') ?? '';
      if (!type.startsWith('text/event-stream')) return (await res.json()) as any;
      return (await readEvents(res.body!)).find((e: ArrivedEvent) => e.message?.id === 1)!.message as any;
    },
  };
}

/**
 * A fetch for an SDK client that reads along the event streams its tool calls answer with, so a test knows the
 * id of a stream's first event (the priming event) without changing what the client receives.
 */
export function watchingFetch() {
  const firstIds: string[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
    if (body.method !== 'tools/call' || !res.headers.get('content-type')?.startsWith('text/event-stream'))
      return res;
    const [mine, theirs] = res.body!.tee();
    let noted = false;
    void readEvents(mine, (event) => {
      if (!noted && event.id) firstIds.push(event.id);
      noted ||= event.id !== undefined;
    }).catch(() => undefined);
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: fetcher, firstIds };
}
