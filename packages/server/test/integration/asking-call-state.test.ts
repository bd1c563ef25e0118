import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWireId } from '../../src/asking/ask-ids.ts';
import { answerDesk } from '../../src/asking/desk.ts';
import { midCallAsker } from '../../src/asking/mid-call.ts';
import { callerOf, slotOf } from '../../src/call-state/ids.ts';
import { dynamoCallStateStores } from '../../src/call-state/dynamodb.ts';
import { memoryCallStateStores } from '../../src/call-state/memory.ts';
import type { CallState } from '../../src/call-state/stores.ts';
import type { JSONObject } from '../../src/protocol/types.ts';
import { silentLogger } from '../../src/log.ts';
import type { InstrumentClient } from '../../src/outbound.ts';
import {
  cancellationStoreChecks,
  LOCAL_DYNAMO_CREDENTIALS,
  losingFirstResponse,
  questionStoreChecks,
  startLocalDynamo,
  type LocalDynamo,
} from '@mcp-lambda/dev/testing';

// The call state of a mid-call question and its answer, on each store: what a client that races, retries or
// replays gets, and what the waiting call sees. The answer is written as another instance writes it (straight into
// the store, nothing wakes the wait), so only what the store holds reaches the call.

let dynamo: LocalDynamo;

beforeAll(async () => {
  dynamo = await startLocalDynamo('call-state-under-test');
});

afterAll(async () => {
  await dynamo?.close();
});

const SESSION = {
  id: 'session-under-test',
  protocolVersion: '2025-11-25',
  capabilities: { elicitation: {} },
};
const QUESTION = {
  method: 'elicitation/create' as const,
  params: { message: 'Delete it?', requestedSchema: { type: 'object', properties: {} } as JSONObject },
};

/** An asker whose call (`callId`) has `budgetMs` left, reading the store every `pollMs`; `sent` holds what went out. */
function asking(store: CallState, budgetMs: number, pollMs: number, callId: string | number = 1) {
  const sent: JSONObject[] = [];
  const asker = midCallAsker({
    live: { send: (message) => void sent.push(message as unknown as JSONObject), cut: () => false },
    callState: { ...store, pollIntervalMs: pollMs },
    session: SESSION,
    callId,
    log: silentLogger,
  });
  const started = Date.now();
  const call = { signal: new AbortController().signal, remainingMs: () => budgetMs - (Date.now() - started) };
  return { ask: asker.ask(QUESTION, call), sent };
}

/** Waits for the question to go out; its slot and askId. */
async function question(sent: JSONObject[]) {
  while (!sent.length) await sleep(5);
  return parseWireId(sent[0]!.id)!;
}

describe.each([
  ['memory', () => memoryCallStateStores()],
  [
    'DynamoDB',
    () =>
      dynamoCallStateStores({
        table: dynamo.tableName,
        endpoint: dynamo.endpoint,
        credentials: LOCAL_DYNAMO_CREDENTIALS,
      }),
  ],
])('the call state in %s', (_label, makeStore) => {
  it('an answer accepted just before the wait times out reaches the call, not a timeout', async () => {
    const store = makeStore();
    // 4 s of budget: the wait ends after 3 s; the only read is the first one, made as the question goes out, so
    // the answer written after it reaches the call only through the last look the timeout takes. The answer is
    // written at once, not at a set time: on a busy machine the store's writes alone can take a second.
    const { ask, sent } = asking(store, 4_000, 60_000);
    const { slot, askId } = await question(sent);
    const answer = { result: { action: 'decline' } };
    expect(
      await store.questions.answer({
        slot,
        askId,
        caller: callerOf(SESSION.id, undefined),
        answer,
        now: Date.now(),
      }),
    ).toBe(true);
    await expect(ask).resolves.toEqual({ action: 'decline' });
    // The question's writes to a local DynamoDB took over 30 s at load 15 (a CI run beside the stress step).
  }, 90_000);

  // The contracts of its questions and its cancellations (the checks `@mcp-lambda/dev/testing` gives any store).
  for (const check of questionStoreChecks(() => makeStore().questions)) it(check.name, check.run);
  for (const check of cancellationStoreChecks(makeStore)) it(check.name, check.run);

  it('a question of a call its client has cancelled is not asked: the ask fails as cancelled', async () => {
    const store = makeStore();
    const caller = callerOf(SESSION.id, undefined);
    // A call id of its own: the table outlives this test.
    const callId = `cancelled-${Date.now()}`;
    expect(await store.cancellations.cancel({ slot: slotOf(caller, callId), caller, now: Date.now() })).toBe(
      true,
    );
    const { ask, sent } = asking(store, 10_000, 20, callId);
    await expect(ask).rejects.toThrow('The client cancelled this call before it asked.');
    expect(sent).toEqual([]);
  });

  it('an answer over 256 KB in UTF-8 (not in characters) reaches the call as unusable, not as a store failure', async () => {
    const store = makeStore();
    const { ask, sent } = asking(store, 10_000, 20);
    const { slot, askId } = await question(sent);
    // 150,000 characters, 450,000 bytes: under a 1 MiB body, over a DynamoDB item.
    const message = {
      jsonrpc: '2.0',
      id: `${slot}.${askId}`,
      result: { action: 'accept', note: '€'.repeat(150_000) },
    };
    const desk = answerDesk(store);
    expect(await desk.deliver(message, { session: SESSION }, silentLogger)).toBe('accepted');
    await expect(ask).rejects.toThrow("The client's answer could not be used: it was larger than 256 KB.");
  });
});

describe('a waiting call', () => {
  it('ends on time with a store whose read outlasts the wait (a store that ignores the signal)', async () => {
    const store = memoryCallStateStores();
    const slow: CallState = {
      ...store,
      questions: {
        ...store.questions,
        read: async (...args) => {
          await sleep(900);
          return store.questions.read(...args);
        },
      },
    };
    // The wait ends 0.5 s in, during the first read; the next read would come 5 s later.
    const started = Date.now();
    const { ask } = asking(slow, 1_500, 5_000);
    await expect(ask).rejects.toThrow(/^No answer came within/);
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe('the DynamoDB call state when a write succeeded and its response was lost (the SDK retries it)', () => {
  const store = (instrument?: InstrumentClient) =>
    dynamoCallStateStores({
      table: dynamo.tableName,
      endpoint: dynamo.endpoint,
      credentials: LOCAL_DYNAMO_CREDENTIALS,
      ...(instrument ? { instrument } : {}),
    });
  const me = callerOf(SESSION.id, undefined);
  const answer = { result: { action: 'accept', content: {} } };

  it('an answer written on the first attempt is accepted, not refused as its own replay', async () => {
    const slot = `L${Date.now()}`.padEnd(22, 'l');
    const askId = 'C'.repeat(22);
    await store().questions.open({ slot, askId, caller: me, expiresAt: Date.now() + 60_000 });
    expect(
      await store(losingFirstResponse('UpdateItemCommand')).questions.answer({
        slot,
        askId,
        caller: me,
        answer,
        now: Date.now(),
      }),
    ).toBe(true);
    // A replay by the client is still refused.
    expect(await store().questions.answer({ slot, askId, caller: me, answer, now: Date.now() })).toBe(
      'settled',
    );
  });

  it('a question removed on the first attempt still hands back the answer it held', async () => {
    const slot = `R${Date.now()}`.padEnd(22, 'r');
    const askId = 'D'.repeat(22);
    await store().questions.open({ slot, askId, caller: me, expiresAt: Date.now() + 60_000 });
    expect(await store().questions.answer({ slot, askId, caller: me, answer, now: Date.now() })).toBe(true);
    expect(
      await store(losingFirstResponse('UpdateItemCommand', 'DeleteItemCommand')).questions.close({
        slot,
        askId,
      }),
    ).toEqual(answer);
    expect(await store().questions.answer({ slot, askId, caller: me, answer, now: Date.now() })).not.toBe(
      true,
    );
  });
});
