import { awsClientConfig, lazyAwsClient } from '../aws-client.ts';
import { nodeCrypto } from '../crypto.ts';
import { dynamoEventLog, type RendezvousTable } from './dynamodb-event-log.ts';
import { RendezvousTableAttributes, type DynamoRendezvousOptions } from './rendezvous-table.ts';
import type { Answer, Refusal, RendezvousStore, Settled } from './rendezvous.ts';

/** An item outlives its question by this much before the table's TTL may delete it (TTL deletes late anyway). */
const TTL_GRACE_SECONDS = 60;

const isConditionFailure = (error: unknown) =>
  (error as { name?: string })?.name === 'ConditionalCheckFailedException';

type Item = Record<string, { S?: string; N?: string }>;

/** Why a conditional write found nothing to write to, from the item as it is (for the log line). */
function refusalOf(item: Item | undefined, askId: string | undefined, caller: string, now: number): Refusal {
  if (!item || (askId !== undefined && item.askId?.S !== askId)) return 'unknown';
  if (item.caller?.S !== caller) return 'other-caller';
  if (Number(item.until?.N) <= now) return 'expired';
  return 'settled';
}

type Table = RendezvousTable;

const keyOf = (slot: string) => ({ [RendezvousTableAttributes.partitionKey]: { S: slot } });

async function getItem(table: Table, slot: string, signal?: AbortSignal): Promise<Item | undefined> {
  const { sdk, client } = await table.load();
  const out = await client.send(
    new sdk.GetItemCommand({ TableName: table.name, Key: keyOf(slot), ConsistentRead: true }),
    { abortSignal: signal },
  );
  return out.Item as Item | undefined;
}

/**
 * A conditional update that settles a waiting question; the refusal when it waits for nothing of this caller. The
 * write carries a token of its own, so that when the SDK sends it again (its first response was lost after the
 * table took it) the failed condition is recognised as this write's own success, not refused as a replay.
 */
async function settle(
  table: Table,
  slot: string,
  askId: string | undefined,
  caller: string,
  values: { state: string; answer?: Answer },
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
        UpdateExpression: `SET #state = :state, writer = :writer${values.answer ? ', answer = :answer' : ''}`,
        ConditionExpression:
          `caller = :caller AND #state = :waiting AND #until > :now` + (askId ? ' AND askId = :askId' : ''),
        ExpressionAttributeNames: { '#state': 'state', '#until': 'until' },
        ExpressionAttributeValues: {
          ':state': { S: values.state },
          ':waiting': { S: 'waiting' },
          ':caller': { S: caller },
          ':writer': { S: writer },
          ':now': { N: String(now) },
          ...(askId ? { ':askId': { S: askId } } : {}),
          ...(values.answer ? { ':answer': { S: JSON.stringify(values.answer) } } : {}),
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
 * Questions in a DynamoDB table, one item per waiting call: `pk` (the call's slot), `askId`, `caller`, `state`,
 * `until` (epoch ms after which no answer is taken), the answer as JSON, the token of the write that settled it
 * (`writer`), and `expiresAt` (the TTL, epoch seconds). An answer and a cancellation are conditional updates (this
 * question, this caller, still waiting, in time), so no replay or foreign answer is ever written; reads are strongly
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
        [TTL]: { N: String(Math.ceil(question.expiresAt / 1000) + TTL_GRACE_SECONDS) },
      };
      await client.send(new sdk.PutItemCommand({ TableName, Item: item }), { abortSignal: signal });
    },
    answer: (slot, askId, caller, answer, now, signal) =>
      settle(table, slot, askId, caller, { state: 'answered', answer }, now, signal),
    cancel: (slot, caller, now, signal) =>
      settle(table, slot, undefined, caller, { state: 'cancelled' }, now, signal),
    async read(slot, askId, now, signal): Promise<Settled | undefined> {
      const item = await getItem(table, slot, signal);
      if (!item || item.askId?.S !== askId || item.state?.S === 'closed') return { state: 'gone' };
      if (item.state?.S === 'answered')
        return { state: 'answered', answer: JSON.parse(item.answer!.S!) as Answer };
      if (item.state?.S === 'cancelled') return { state: 'cancelled' };
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
