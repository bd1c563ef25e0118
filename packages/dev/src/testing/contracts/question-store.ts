import assert from 'node:assert/strict';
import type { Answer, QuestionStore } from '@mcp-lambda/server/backend';
import { CALLERS, freshId } from './call-slots.ts';
import { checks, type ContractCheck, type MakeStore } from './check.ts';

const { me, other } = CALLERS;
const accepted: Answer = { result: { action: 'accept', content: { ok: true } } };

/** A question opened in a fresh slot, waiting a minute for its answer from `me`. */
async function asked(questions: QuestionStore) {
  const question = { slot: freshId(), askId: freshId(), caller: me, expiresAt: Date.now() + 60_000 };
  assert.equal(await questions.open(question), true, 'a question opens in a fresh slot');
  return question;
}

/**
 * The `QuestionStore` contract (`@mcp-lambda/server/backend`), where the call state's mid-call questions wait: an
 * answer is taken once, only for the question's id, from its caller, in time; the waiting call reads it back; a
 * closed question hands back the answer it held and takes no more. How questions and cancellations share their
 * slots is `cancellationStoreChecks`'s.
 */
export function questionStoreChecks(make: MakeStore<QuestionStore>): ContractCheck[] {
  return checks(make, {
    'takes the answer of a waiting question once, and the waiting call reads it back': async (questions) => {
      const { slot, askId } = await asked(questions);
      const now = Date.now();
      assert.equal(await questions.read({ slot, askId, now }), undefined);
      assert.equal(await questions.answer({ slot, askId, caller: me, answer: accepted, now }), true);
      assert.equal(await questions.answer({ slot, askId, caller: me, answer: accepted, now }), 'settled');
      assert.deepStrictEqual(await questions.read({ slot, askId, now }), {
        state: 'answered',
        answer: accepted,
      });
    },
    "refuses an unknown question, a guessed id, another caller's answer and a late one, and still waits":
      async (questions) => {
        const slot = freshId();
        const askId = freshId();
        const now = Date.now();
        const answer = (over: { askId?: string; caller?: string; now?: number }) =>
          questions.answer({ slot, askId, caller: me, answer: accepted, now, ...over });
        // Before the question is recorded: nothing is written, so nothing pre-answers it.
        assert.equal(await answer({}), 'unknown');
        await questions.open({ slot, askId, caller: me, expiresAt: now + 60_000 });
        assert.equal(await answer({ askId: freshId() }), 'unknown');
        assert.equal(await answer({ caller: other }), 'other-caller');
        assert.equal(await answer({ now: now + 60_000 }), 'expired');
        assert.equal(await questions.read({ slot, askId, now }), undefined);
        assert.equal(await answer({}), true);
      },
    'keeps every kind of answer as given: a result, a JSON-RPC error, a failure': async (questions) => {
      const answers: Answer[] = [
        { result: { text: '€ 𝄞 "quoted"', nested: { list: [1, null, true] } } },
        { error: { code: -32603, message: 'the user closed the form' } },
        { failure: 'it was larger than 256 KB' },
      ];
      for (const answer of answers) {
        const { slot, askId } = await asked(questions);
        const now = Date.now();
        assert.equal(await questions.answer({ slot, askId, caller: me, answer, now }), true);
        assert.deepStrictEqual(await questions.read({ slot, askId, now }), { state: 'answered', answer });
      }
    },
    'closes a question: hands back the answer it held (again if closed again), then reads as gone and takes no answer':
      async (questions) => {
        const answered = await asked(questions);
        const now = Date.now();
        await questions.answer({ ...answered, answer: accepted, now });
        assert.deepStrictEqual(await questions.close(answered), accepted);
        // A close sent again (an SDK's retry) still hands back the answer, or the call would lose it.
        assert.deepStrictEqual(await questions.close(answered), accepted);
        assert.deepStrictEqual(await questions.read({ ...answered, now }), { state: 'gone' });
        assert.notEqual(await questions.answer({ ...answered, answer: accepted, now }), true);
        const unanswered = await asked(questions);
        assert.equal(await questions.close(unanswered), undefined);
        assert.notEqual(await questions.answer({ ...unanswered, answer: accepted, now }), true);
      },
    'reads a question whose time has passed, or that was never asked, as gone': async (questions) => {
      const now = Date.now();
      const question = { slot: freshId(), askId: freshId(), caller: me, expiresAt: now + 1_000 };
      await questions.open(question);
      assert.equal(await questions.read({ ...question, now: now + 999 }), undefined);
      assert.deepStrictEqual(await questions.read({ ...question, now: now + 1_000 }), { state: 'gone' });
      assert.deepStrictEqual(await questions.read({ slot: freshId(), askId: freshId(), now }), {
        state: 'gone',
      });
    },
    "keeps each call's question apart: an answer to one leaves the other waiting": async (questions) => {
      const [a, b] = [await asked(questions), await asked(questions)];
      const now = Date.now();
      assert.equal(await questions.answer({ ...a, answer: accepted, now }), true);
      assert.equal(await questions.read({ ...b, now }), undefined);
      assert.equal(
        await questions.answer({ slot: b.slot, askId: a.askId, caller: me, answer: accepted, now }),
        'unknown',
      );
    },
  });
}
