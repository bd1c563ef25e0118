import { nodeCrypto } from '../crypto.ts';
import {
  getItem,
  isConditionFailure,
  keyOf,
  ttlOf,
  type CallStateTable,
  type Item,
} from './dynamodb-table.ts';
import type { Answer, QuestionStore, Refusal, Settled } from './stores.ts';
import { CallStateTableAttributes } from './table.ts';

/** Why a conditional write found nothing to write to, from the item as it is (for the log line). */
function refusalOf(item: Item | undefined, askId: string, caller: string, now: number): Refusal {
  if (!item || item.askId?.S !== askId) return 'unknown';
  if (item.caller?.S !== caller) return 'other-caller';
  if (Number(item.until?.N) <= now) return 'expired';
  return 'settled';
}

/**
 * A conditional update that answers a waiting question; the refusal when it waits for nothing of this caller. The
 * write carries a token of its own, so that when the SDK sends it again (its first response was lost after the
 * table took it) the failed condition is recognised as this write's own success, not refused as a replay.
 */
async function recordAnswer(
  table: CallStateTable,
  to: Parameters<QuestionStore['answer']>[0],
  signal?: AbortSignal,
): Promise<true | Refusal> {
  const { slot, askId, caller, answer, now } = to;
  const { sdk, client } = await table.load();
  const writer = nodeCrypto().randomBytes(12).toString('base64url');
  try {
    await client.send(
      new sdk.UpdateItemCommand({
        TableName: table.name,
        Key: keyOf(slot),
        UpdateExpression: 'SET #state = :answered, writer = :writer, answer = :answer',
        ConditionExpression:
          'askId = :askId AND caller = :caller AND #state = :waiting AND #until > :now AND ' +
          'attribute_not_exists(cancelledAt)',
        ExpressionAttributeNames: { '#state': 'state', '#until': 'until' },
        ExpressionAttributeValues: {
          ':answered': { S: 'answered' },
          ':waiting': { S: 'waiting' },
          ':askId': { S: askId },
          ':caller': { S: caller },
          ':writer': { S: writer },
          ':now': { N: String(now) },
          ':answer': { S: JSON.stringify(answer) },
        },
      }),
      { abortSignal: signal },
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const item = await getItem(table, keyOf(slot), signal).catch(() => undefined);
    return item?.writer?.S === writer ? true : refusalOf(item, askId, caller, now);
  }
}

/**
 * Questions in the call state's table, one item per waiting call: `pk` (the call's slot), `askId`, `caller`,
 * `state`, `until` (epoch ms after which no answer is taken), the answer as JSON, the token of the write that settled
 * it (`writer`), `cancelledAt` once the client cancelled the call (dynamodb-cancellations.ts), and `expiresAt` (the
 * TTL, epoch seconds). An answer is a conditional update (this question, this caller, still waiting, not cancelled,
 * in time), so no replay or foreign answer is ever written; reads are strongly consistent, so a waiting call sees an
 * answer on its next read. Every write stays right when the SDK sends it a second time.
 */
export function dynamoQuestions(table: CallStateTable): QuestionStore {
  const TableName = table.name;
  return {
    async open(question, signal) {
      const { sdk, client } = await table.load();
      const item = {
        ...keyOf(question.slot),
        askId: { S: question.askId },
        caller: { S: question.caller },
        state: { S: 'waiting' },
        until: { N: String(question.expiresAt) },
        [CallStateTableAttributes.ttl]: ttlOf(question.expiresAt),
      };
      try {
        // A question never replaces the call's cancellation (it would hide it from the call's watch).
        await client.send(
          new sdk.PutItemCommand({
            TableName,
            Item: item,
            ConditionExpression: 'attribute_not_exists(cancelledAt)',
          }),
          { abortSignal: signal },
        );
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return false;
      }
    },
    answer: (to, signal) => recordAnswer(table, to, signal),
    async read({ slot, askId, now }, signal): Promise<Settled | undefined> {
      const item = await getItem(table, keyOf(slot), signal);
      if (!item || item.askId?.S !== askId || item.state?.S === 'closed') return { state: 'gone' };
      if (item.state?.S === 'answered')
        return { state: 'answered', answer: JSON.parse(item.answer!.S!) as Answer };
      if (item.cancelledAt) return { state: 'cancelled' };
      return Number(item.until?.N) <= now ? { state: 'gone' } : undefined;
    },
    async close({ slot, askId }, signal) {
      // Closed, not deleted (the TTL deletes it): a close the SDK sends again still finds the answer it held.
      const { sdk, client } = await table.load();
      try {
        const out = await client.send(
          new sdk.UpdateItemCommand({
            TableName,
            Key: keyOf(slot),
            UpdateExpression: 'SET #state = :closed',
            ConditionExpression: 'askId = :askId',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':askId': { S: askId }, ':closed': { S: 'closed' } },
            ReturnValues: 'ALL_OLD',
          }),
          { abortSignal: signal },
        );
        const held = (out.Attributes as Item | undefined)?.answer?.S;
        return held === undefined ? undefined : (JSON.parse(held) as Answer);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return undefined;
      }
    },
  };
}
