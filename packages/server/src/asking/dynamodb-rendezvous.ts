import { awsClientConfig, lazyAwsClient } from '../aws-client.ts';
import { nodeCrypto } from '../crypto.ts';
import { dynamoEventLog, type RendezvousTable } from './dynamodb-event-log.ts';
import { RendezvousTableAttributes, type DynamoRendezvousOptions } from './rendezvous-table.ts';
import {
  CANCELLATION_LIFETIME_MS,
  type Answer,
  type Refusal,
  type RendezvousStore,
  type Settled,
} from './rendezvous.ts';

/** An item outlives its question by this much before the table's TTL may delete it (TTL deletes late anyway). */
const TTL_GRACE_SECONDS = 60;

const isConditionFailure = (error: unknown) =>
  (error as { name?: string })?.name === 'ConditionalCheckFailedException';

type Item = Record<string, { S?: string; N?: string }>;

/** Why a conditional write found nothing to write to, from the item as it is (for the log line). */
function refusalOf(item: Item | undefined, askId: string, caller: string, now: number): Refusal {
  if (!item || item.askId?.S !== askId) return 'unknown';
  if (item.caller?.S !== caller) return 'other-caller';
  if (Number(item.until?.N) <= now) return 'expired';
  return 'settled';
}

type Table = RendezvousTable;

const keyOf = (slot: string) => ({ [RendezvousTableAttributes.partitionKey]: { S: slot } });
const ttlOf = (until: number) => ({
  N: String(Math.ceil(until / 1000) + TTL_GRACE_SECONDS),
});

async function getItem(table: Table, slot: string, signal?: AbortSignal): Promise<Item | undefined> {
  const { sdk, client } = await table.load();
  const out = await client.send(
    new sdk.GetItemCommand({ TableName: table.name, Key: keyOf(slot), ConsistentRead: true }),
    { abortSignal: signal },
  );
  return out.Item as Item | undefined;
}

/**
 * A conditional update that answers a waiting question; the refusal when it waits for nothing of this caller. The
 * write carries a token of its own, so that when the SDK sends it again (its first response was lost after the
 * table took it) the failed condition is recognised as this write's own success, not refused as a replay.
 */
async function recordAnswer(
  table: Table,
  slot: string,
  askId: string,
  caller: string,
  answer: Answer,
  now: number,
  signal?: AbortSignal,
): Promise<true | Refusal> {
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
    const item = await getItem(table, slot, signal).catch(() => undefined);
    return item?.writer?.S === writer ? true : refusalOf(item, askId, caller, now);
  }
}

/**
 * Records a cancellation in the call's slot with one conditional update: on the question it holds (for this caller),
 * or as a new item that lives as long as a call can. Its own token makes a write the SDK sends again a success.
 */
async function recordCancel(
  table: Table,
  slot: string,
  caller: string,
  now: number,
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
          '#pk': RendezvousTableAttributes.partitionKey,
          '#until': 'until',
          '#ttl': RendezvousTableAttributes.ttl,
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
    const item = await getItem(table, slot, signal).catch(() => undefined);
    if (item?.writer?.S === writer) return true;
    return item?.caller?.S === caller ? 'settled' : 'other-caller';
  }
}

/**
 * Questions in a DynamoDB table, one item per waiting call: `pk` (the call's slot), `askId`, `caller`, `state`,
 * `until` (epoch ms after which no answer is taken), the answer as JSON, the token of the write that settled it
 * (`writer`), `cancelledAt` once the client cancelled the call, and `expiresAt` (the TTL, epoch seconds). An answer is
 * a conditional update (this question, this caller, still waiting, not cancelled, in time), so no replay or foreign
 * answer is ever written; a cancellation is one too (this caller, once), with or without a question; reads are strongly
 * consistent, so a waiting call sees an answer on its next read. Every write stays right when the SDK sends it a
 * second time. The same table keeps the event logs of cut streams (dynamodb-event-log.ts). The SDK is imported on
 * first use and is provided by the Lambda runtime.
 */
export function dynamoRendezvous(options: DynamoRendezvousOptions): RendezvousStore {
  const load = lazyAwsClient(
    () => import('@aws-sdk/client-dynamodb'),
    (sdk) => new sdk.DynamoDBClient(awsClientConfig(options, 5_000)),
    options.instrument,
  );
  const table: Table = { name: options.table, load };
  const TableName = options.table;
  const TTL = RendezvousTableAttributes.ttl;
  return {
    ...dynamoEventLog(table),
    async open(question, signal) {
      const { sdk, client } = await load();
      const item = {
        ...keyOf(question.slot),
        askId: { S: question.askId },
        caller: { S: question.caller },
        state: { S: 'waiting' },
        until: { N: String(question.expiresAt) },
        [TTL]: ttlOf(question.expiresAt),
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
    answer: (slot, askId, caller, answer, now, signal) =>
      recordAnswer(table, slot, askId, caller, answer, now, signal),
    cancel: (slot, caller, now, signal) => recordCancel(table, slot, caller, now, signal),
    async cancelled(slot, caller, signal) {
      const item = await getItem(table, slot, signal);
      return item?.caller?.S === caller && item.cancelledAt !== undefined;
    },
    async read(slot, askId, now, signal): Promise<Settled | undefined> {
      const item = await getItem(table, slot, signal);
      if (!item || item.askId?.S !== askId || item.state?.S === 'closed') return { state: 'gone' };
      if (item.state?.S === 'answered')
        return { state: 'answered', answer: JSON.parse(item.answer!.S!) as Answer };
      if (item.cancelledAt) return { state: 'cancelled' };
      return Number(item.until?.N) <= now ? { state: 'gone' } : undefined;
    },
    async close(slot, askId, signal) {
      // Closed, not deleted (the TTL deletes it): a close the SDK sends again still finds the answer it held.
      const { sdk, client } = await load();
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
