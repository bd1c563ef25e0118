import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MemoryOAuthProvider, readEvents } from '@mcp-lambda/dev/testing';
import { start, ending } from '../support/npm-start.ts';
import {
  claimsOf,
  rawClient,
  REDIRECT,
  signIn,
  signInFrom,
  watchingFetch,
} from '../support/oauth-clients.ts';

// `LOCAL_API=rest-streaming MCP_AUTH_MODE=oauth npm start`, the deployed default pair on this machine: the local
// bridge beside the streaming /mcp. The official SDK 1.x client signs in through the bridge (discovery from the 401,
// registration, consent, sign-in, code exchange) and is asked mid-call by delete_output. A second client of the same
// person, registered and signed in on its own, holds the first client's session id, question id, event id and
// requestState: none of them does anything for it, and the first client's own answer still counts afterwards.
// Stored outputs stay the person's: the second client reads the first one's.

const ENV = {
  PORT: '0',
  LOCAL_API: 'rest-streaming',
  MCP_AUTH_MODE: 'oauth',
  // Every stream is logged from its first event, so a stream waiting on a question can be resumed at once.
  MCP_STREAM_LOG_AFTER_MS: '0',
  POWERTOOLS_LOG_LEVEL: 'WARN',
  OFFLOAD_BUCKET: undefined,
};
const linkOf = (result: any): string =>
  result.content.find((block: { type: string }) => block.type === 'resource_link').uri;
const statusOf = async (res: Response) => (await res.text(), res.status);

describe('LOCAL_API=rest-streaming MCP_AUTH_MODE=oauth npm start, with SDK clients of one person', () => {
  it('signs in through the local bridge, asks mid-call, and binds what each client holds to it', async () => {
    const run = await start(ENV, async (url, startup) => {
      const user = signInFrom(startup);
      const endpoint = new URL(url);

      // The first client: SDK 1.x, which can be asked (elicitation).
      const firstAuth = new MemoryOAuthProvider(REDIRECT);
      const watched = watchingFetch();
      const first = new Client({ name: 'first', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      const refused = new StreamableHTTPClientTransport(endpoint, { authProvider: firstAuth as never });
      await expect(first.connect(refused)).rejects.toThrow(/Unauthorized/i);
      await refused.finishAuth((await signIn(firstAuth, user)).get('code')!);
      const firstTransport = new StreamableHTTPClientTransport(endpoint, {
        authProvider: firstAuth as never,
        fetch: watched.fetch,
      });

      // The second client: SDK 2.x, registered and signed in on its own.
      const secondAuth = new MemoryOAuthProvider(REDIRECT);
      const second = new Client2({ name: 'second', version: '1.0.0' });
      const secondRefused = new Transport2(endpoint, { authProvider: secondAuth as never });
      await expect(second.connect(secondRefused)).rejects.toThrow();
      await secondRefused.finishAuth(await signIn(secondAuth, user));
      const secondTransport = new Transport2(endpoint, { authProvider: secondAuth as never });
      await second.connect(secondTransport);
      expect(claimsOf(secondAuth).sub).toBe(claimsOf(firstAuth).sub);
      expect(claimsOf(secondAuth).client_id).not.toBe(claimsOf(firstAuth).client_id);
      const [mine, theirs] = [rawClient(url, firstAuth), rawClient(url, secondAuth)];

      const asked: unknown[] = [];
      let duringQuestion: (questionId: string | number) => Promise<void> = async () => undefined;
      first.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        asked.push(request.params);
        await duringQuestion(extra.requestId);
        return { action: 'accept', content: { approve: true } };
      });
      await first.connect(firstTransport);
      try {
        const uri = linkOf(await first.callTool({ name: 'generate_report', arguments: { rows: 5000 } }));
        const readable = async () =>
          !(await first.callTool({ name: 'read_output', arguments: { uri, count: 10 } })).isError;
        // The person's outputs are theirs from every client.
        expect(
          (await second.callTool({ name: 'read_output', arguments: { uri, count: 10 } })).isError,
        ).toBeFalsy();

        // 2026-07-28: the first client's requestState does nothing for the second.
        const ask = { name: 'delete_output', arguments: { uri } };
        const round = await mine.stateless('tools/call', ask, { elicitation: {} });
        expect(round.result.resultType).toBe('input_required');
        const [key] = Object.keys(round.result.inputRequests);
        const retry = (approve: boolean) => ({
          ...ask,
          inputResponses: { [key!]: { action: 'accept', content: { approve } } },
          requestState: round.result.requestState,
        });
        const replayed = await theirs.stateless('tools/call', retry(true), { elicitation: {} });
        expect(replayed.error.code).toBe(-32602);
        expect(await readable()).toBe(true);
        const declined = await mine.stateless('tools/call', retry(false), { elicitation: {} });
        expect(declined.result.content[0].text).toBe('The person did not approve, so nothing was done.');

        // The handshake era, mid-call: while the first client's question waits, the second client tries it all.
        const session = firstTransport.sessionId!;
        let resumed: Promise<unknown[]> | undefined;
        duringQuestion = async (questionId) => {
          const answer = {
            jsonrpc: '2.0',
            id: questionId,
            result: { action: 'accept', content: { approve: false } },
          };
          expect(await statusOf(await theirs.post(answer, session))).toBe(404);
          expect(await statusOf(await theirs.post(answer, secondTransport.sessionId!))).toBe(400);
          const eventId = watched.firstIds.at(-1)!;
          expect(await statusOf(await theirs.resume(session, eventId))).toBe(404);
          expect(await statusOf(await theirs.resume(secondTransport.sessionId!, eventId))).toBe(404);
          // The first client's own resume is served: it replays the question, then the result once answered.
          const own = await mine.resume(session, eventId);
          expect(own.status).toBe(200);
          resumed = readEvents(own.body!).then((events) => events.map((e) => e.message).filter(Boolean));
        };
        const approved = await first.callTool(ask);
        expect(asked).toHaveLength(1);
        expect(approved.isError).toBeFalsy();
        expect(await readable()).toBe(false);
        const replay = (await resumed!) as { id?: unknown; method?: string; result?: unknown }[];
        expect(replay.map((m) => m.method ?? 'response')).toEqual(['elicitation/create', 'response']);
      } finally {
        await first.close();
        await second.close();
      }
    });
    // The refusals the server logged: the second client's answer and resume with its own session, as another
    // caller's (with the first client's session id, nothing opened: 404 before any lookup).
    const logged = run.stderr
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { message: string; reason?: string });
    expect(logged.map(({ message, reason }) => ({ message, reason }))).toEqual([
      { message: 'answer refused', reason: 'other-caller' },
      { message: 'stream resumption refused', reason: 'other-caller' },
    ]);
    expect(run.code, ending(run)).toBe(0);
  }, 90_000);
});
