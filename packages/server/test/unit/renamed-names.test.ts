import { describe, expect, it } from 'vitest';
import {
  CallStateTableAttributes,
  dynamoCallState,
  dynamoRendezvous,
  RendezvousTableAttributes,
  type DynamoRendezvousOptions,
} from '../../src/faces/aws.ts';
import { memoryCallState, memoryRendezvous, type RendezvousStore } from '../../src/faces/backend.ts';
import { createMcpServer, silentLogger, type McpServerOptions } from '../../src/faces/lambda.ts';

// The names the call state had in the previous release, kept (deprecated) so an app written against it compiles and
// runs unchanged: each is the call state's own.

/** The answer of a server to a GET without Last-Event-ID on a streaming adapter: which refusal names the method. */
async function getRefusal(options: Partial<McpServerOptions>): Promise<string> {
  const { handle } = createMcpServer({ info: { name: 'renamed', version: '1.0.0' }, ...options });
  const response = await handle(
    { method: 'GET', path: '/mcp', headers: { accept: 'text/event-stream' } },
    { requestId: 'r', log: silentLogger, streaming: { disconnected: new AbortController().signal } },
  );
  expect(response.status).toBe(405);
  return JSON.parse(response.body as string).error.message;
}

describe('the names of the previous release', () => {
  it('make the call state', async () => {
    expect(RendezvousTableAttributes).toEqual(CallStateTableAttributes);
    const options: DynamoRendezvousOptions = { table: 'calls' };
    const stores = ['cancellations', 'questions', 'streamLog'];
    expect(Object.keys(dynamoRendezvous(options)).sort()).toEqual(stores);
    expect(Object.keys(dynamoCallState(options)).sort()).toEqual(stores);
    // A memory call state of its own each time, as `memoryCallState()` makes.
    const state: RendezvousStore = memoryRendezvous();
    const call = { slot: 'S'.repeat(22), caller: 'caller', now: Date.now() };
    expect(await state.cancellations.cancel(call)).toBe(true);
    expect(await state.cancellations.cancelled(call)).toBe(true);
    expect(await memoryRendezvous().cancellations.cancelled(call)).toBe(false);
    expect(await memoryCallState().cancellations.cancelled(call)).toBe(false);
  });

  it('`rendezvous` gives the server its call state, as `callState` does: a GET may then resume a stream', async () => {
    const sessions = { keys: ['renamed-names-session-key-000000000000'] };
    const resumable = 'Method not allowed: this server offers no standalone GET stream; use POST';
    expect(await getRefusal({ sessions, rendezvous: memoryRendezvous() })).toBe(resumable);
    expect(await getRefusal({ sessions, callState: memoryCallState() })).toBe(resumable);
    expect(await getRefusal({ sessions })).toBe('Method not allowed: GET; use POST');
  });
});
