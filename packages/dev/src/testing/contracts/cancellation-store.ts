import assert from 'node:assert/strict';
import type { CallState } from '@mcp-lambda/server/backend';
import { CALLERS, freshId } from './call-slots.ts';
import { checks, type ContractCheck, type MakeStore } from './check.ts';

const { me, other } = CALLERS;

/**
 * The `CancellationStore` contract (`@mcp-lambda/server/backend`), where the clients' cancellations of their calls
 * wait for the calls to see them: a cancellation is recorded once, for its caller only, whether or not a question
 * waits in the call's slot. It shares the slots with the call state's questions, so it is checked with them: a
 * cancellation settles the slot's waiting question, keeps an answer already given, and no question is asked after
 * it.
 */
export function cancellationStoreChecks(
  make: MakeStore<Pick<CallState, 'questions' | 'cancellations'>>,
): ContractCheck[] {
  return checks(make, {
    'records a cancellation once, for its caller only, with no question waiting': async ({
      cancellations,
    }) => {
      const slot = freshId();
      const now = Date.now();
      assert.equal(await cancellations.cancelled({ slot, caller: me }), false);
      assert.equal(await cancellations.cancel({ slot, caller: me, now }), true);
      assert.equal(await cancellations.cancelled({ slot, caller: me }), true);
      assert.equal(await cancellations.cancelled({ slot, caller: other }), false);
      // Repeated, or another caller's: refused, and the record stays this caller's.
      assert.equal(await cancellations.cancel({ slot, caller: me, now }), 'settled');
      assert.equal(await cancellations.cancel({ slot, caller: other, now }), 'other-caller');
      assert.equal(await cancellations.cancelled({ slot, caller: other }), false);
    },
    'settles a waiting question as cancelled, refuses a later answer, and outlasts its close': async ({
      questions,
      cancellations,
    }) => {
      const question = { slot: freshId(), askId: freshId(), caller: me, expiresAt: Date.now() + 60_000 };
      const now = Date.now();
      await questions.open(question);
      assert.equal(await cancellations.cancel({ ...question, caller: other, now }), 'other-caller');
      assert.equal(await questions.read({ ...question, now }), undefined);
      assert.equal(await cancellations.cancel({ ...question, now }), true);
      assert.deepStrictEqual(await questions.read({ ...question, now }), { state: 'cancelled' });
      assert.equal(await questions.answer({ ...question, answer: { result: {} }, now }), 'settled');
      assert.equal(await questions.close(question), undefined);
      assert.equal(await cancellations.cancelled(question), true);
    },
    'asks no question in a cancelled slot': async ({ questions, cancellations }) => {
      const slot = freshId();
      const askId = freshId();
      const now = Date.now();
      assert.equal(await cancellations.cancel({ slot, caller: me, now }), true);
      assert.equal(await questions.open({ slot, askId, caller: me, expiresAt: now + 60_000 }), false);
      assert.notEqual(await questions.answer({ slot, askId, caller: me, answer: { result: {} }, now }), true);
      assert.equal(await cancellations.cancelled({ slot, caller: me }), true);
    },
    'keeps an answer given before the cancellation: the call reads it': async ({
      questions,
      cancellations,
    }) => {
      const question = { slot: freshId(), askId: freshId(), caller: me, expiresAt: Date.now() + 60_000 };
      const now = Date.now();
      const answer = { result: { action: 'decline' } };
      await questions.open(question);
      assert.equal(await questions.answer({ ...question, answer, now }), true);
      assert.equal(await cancellations.cancel({ ...question, now }), true);
      assert.equal(await cancellations.cancel({ ...question, now }), 'settled');
      assert.deepStrictEqual(await questions.read({ ...question, now }), { state: 'answered', answer });
      assert.deepStrictEqual(await questions.close(question), answer);
      assert.equal(await cancellations.cancelled(question), true);
    },
  });
}
