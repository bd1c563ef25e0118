import { nodeCrypto } from '../crypto.ts';
import { getItem, isConditionFailure, keyOf, ttlOf, type CallStateTable } from './dynamodb-table.ts';
import { CANCELLATION_LIFETIME_MS, type CancellationStore, type Refusal } from './stores.ts';
import { CallStateTableAttributes } from './table.ts';

/**
 * Records a cancellation in the call's slot with one conditional update: on the question it holds (for this caller),
 * or as a new item that lives as long as a call can. Its own token makes a write the SDK sends again a success.
 */
async function recordCancel(
  table: CallStateTable,
  { slot, caller, now }: Parameters<CancellationStore['cancel']>[0],
  signal?: AbortSignal,
): Promise<true | Refusal> {
  const { sdk, client } = await table.load();
  const writer = nodeCrypto().randomBytes(12).toString('base64url');
  const until = now + CANCELLATION_LIFETIME_MS;
  try {
    await client.send(
      new sdk.UpdateItemCommand({
        TableName: table.name,
        Key: keyOf(slot),
        UpdateExpression:
          'SET cancelledAt = :now, writer = :writer, caller = if_not_exists(caller, :caller), ' +
          '#until = if_not_exists(#until, :until), #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression:
          'attribute_not_exists(#pk) OR (caller = :caller AND attribute_not_exists(cancelledAt))',
        ExpressionAttributeNames: {
          '#pk': CallStateTableAttributes.partitionKey,
          '#until': 'until',
          '#ttl': CallStateTableAttributes.ttl,
        },
        ExpressionAttributeValues: {
          ':now': { N: String(now) },
          ':writer': { S: writer },
          ':caller': { S: caller },
          ':until': { N: String(until) },
          ':ttl': ttlOf(until),
        },
      }),
      { abortSignal: signal },
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const item = await getItem(table, keyOf(slot), signal).catch(() => undefined);
    if (item?.writer?.S === writer) return true;
    return item?.caller?.S === caller ? 'settled' : 'other-caller';
  }
}

/**
 * Cancellations in the call state's table, in the items of the calls' slots (dynamodb-questions.ts): `cancelledAt`
 * on the question the slot holds, or an item of its own when none does. A cancellation is a conditional update
 * (this caller, once); the read is strongly consistent.
 */
export function dynamoCancellations(table: CallStateTable): CancellationStore {
  return {
    cancel: (call, signal) => recordCancel(table, call, signal),
    async cancelled({ slot, caller }, signal) {
      const item = await getItem(table, keyOf(slot), signal);
      return item?.caller?.S === caller && item.cancelledAt !== undefined;
    },
  };
}
