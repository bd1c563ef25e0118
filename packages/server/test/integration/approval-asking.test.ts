import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, defineView } from '../../src/index.ts';
import type { McpServerOptions } from '../../src/faces/lambda.ts';
import { memoryCallState } from '../../src/faces/backend.ts';
import {
  answer,
  initialize,
  startCall,
  serveServer,
  serveStreamingServer,
  type RunningServer,
} from '@mcp-lambda/dev/testing';

/**
 * The approval gate in the handshake era, for a client that declared elicitation at `initialize` but no views (its
 * session says so): on the streaming API the gate asks the person mid-call and acts on an accepted yes, once; on
 * the buffered API it cannot ask, and says what is needed.
 */

const erased: string[] = [];
const erase = defineTool({
  name: 'erase',
  description: 'Erases a record.',
  inputSchema: { type: 'object', properties: { record: { type: 'string' } }, required: ['record'] } as const,
  timeoutMs: 20_000,
  approval: {
    view: defineView({ uri: 'ui://fixture/approval', name: 'approval', html: () => '<!doctype html>' }),
    describe: ({ record }) => `Erase the record "${record}".`,
  },
  handler: ({ record }) => {
    erased.push(record);
    return `Erased "${record}".`;
  },
});

const options: McpServerOptions = {
  info: { name: 'approval-asking', version: '1.0.0' },
  tools: [erase],
  sessions: { keys: ['approval-asking-session-key-0000000000'] },
  callState: memoryCallState(),
  askPollIntervalMs: 20,
};
const ELICITING = { elicitation: { form: {} } };

let streaming: RunningServer;
let buffered: RunningServer;
beforeAll(async () => {
  streaming = await serveStreamingServer(options);
  buffered = await serveServer(options);
});
afterAll(async () => {
  await Promise.all([streaming?.close(), buffered?.close()]);
});

const text = (message: any) => message.result.content.map((b: any) => b.text).join('\n');

describe('a handshake-era client that can be asked, on the streaming API', () => {
  it('is asked mid-call with what will happen; an accepted yes runs the handler once', async () => {
    erased.length = 0;
    const session = await initialize(streaming.url, ELICITING);
    const call = await startCall(streaming.url, session, 'erase', { record: 'alpha' });
    const question = await call.next();
    expect(question).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Approve this? Erase the record "alpha".' },
    });
    expect(erased).toEqual([]);
    const yes = { action: 'accept', content: { approve: true } };
    expect((await answer(streaming.url, session, question.id, yes)).status).toBe(202);
    expect(text(await call.result())).toBe('Erased "alpha".');
    // The same answer again is refused by the call state; nothing more is done.
    expect((await answer(streaming.url, session, question.id, yes)).status).not.toBe(202);
    expect(erased).toEqual(['alpha']);
  });

  it.each([
    ['a decline', { action: 'decline' }, /^The person did not approve, so nothing was done\.$/],
    ['an accepted no', { action: 'accept', content: { approve: false } }, /^The person did not approve/],
    [
      'a cancel',
      { action: 'cancel' },
      /^The person closed the question without answering, so nothing was done\./,
    ],
  ])('%s does nothing, and says which it was', async (_label, reply, says) => {
    erased.length = 0;
    const session = await initialize(streaming.url, ELICITING);
    const call = await startCall(streaming.url, session, 'erase', { record: 'beta' });
    const question = await call.next();
    expect((await answer(streaming.url, session, question.id, reply)).status).toBe(202);
    expect(text(await call.result())).toMatch(says);
    expect(erased).toEqual([]);
  });
});

describe('the same client on the buffered API', () => {
  it('is refused, saying what is needed, and nothing is done', async () => {
    erased.length = 0;
    const session = await initialize(buffered.url, ELICITING);
    const call = await startCall(buffered.url, session, 'erase', { record: 'gamma' });
    const result = await call.result();
    expect(result.result.isError).toBe(true);
    expect(text(result)).toMatch(/needs the person's approval first: Erase the record "gamma"\./);
    // It declared elicitation: the refusal says this deployment cannot ask mid-call, and what would.
    expect(text(result)).toMatch(/can be asked \(elicitation\), but not mid-call on this deployment/);
    expect(text(result)).toMatch(
      /streaming API, a client on protocol revision 2026-07-28.*MCP Apps views\.$/,
    );
    expect(erased).toEqual([]);
  });
});
