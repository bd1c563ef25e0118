import { awsClientConfig, lazyAwsClient } from '../aws-client.ts';
import { storageKey, TaskStoreError, type TaskStore } from './store.ts';
import { TaskTableAttributes, type DynamoTaskStoreOptions } from './task-table.ts';
import type { TaskRecord } from './types.ts';

const isConditionFailure = (error: unknown) =>
  (error as { name?: string })?.name === 'ConditionalCheckFailedException';

/**
 * Task records in DynamoDB, one item each: the key, the revision, the expiry (the table's TTL attribute, in epoch
 * seconds, so DynamoDB deletes the item some time after the task expired) and the record as one JSON string.
 * Every write is conditional: a create only where no item is, a replace only over the revision that was read, so
 * two writers can never both win a state transition. Reads are strongly consistent, so a task is readable the
 * moment `create` returns (SEP-2663 "durably created"). Each call ends when its signal fires (the invocation's
 * deadline), whatever the SDK's own timeouts. This module loads on the first task operation (`dynamoTaskStore`),
 * and the SDK with it, provided by the Lambda runtime, so the bundles do not carry it.
 */
export function dynamoTaskRecords(options: DynamoTaskStoreOptions): TaskStore {
  const load = lazyAwsClient(
    () => import('@aws-sdk/client-dynamodb'),
    (sdk) => new sdk.DynamoDBClient(awsClientConfig(options, 5_000)),
    options.instrument,
  );
  const { partitionKey: PK, ttl: TTL } = TaskTableAttributes;
  const item = (record: TaskRecord) => ({
    [PK]: { S: storageKey(record) },
    rev: { N: String(record.revision) },
    [TTL]: { N: String(Math.ceil(record.expiresAt / 1000)) },
    doc: { S: JSON.stringify(record) },
  });

  return {
    async create(record, call) {
      try {
        const { sdk, client } = await load();
        await client.send(
          new sdk.PutItemCommand({
            TableName: options.table,
            Item: item(record),
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': PK },
          }),
          { abortSignal: call?.signal },
        );
      } catch (error) {
        throw new TaskStoreError('create', { cause: error });
      }
    },
    async get(key, call) {
      try {
        const { sdk, client } = await load();
        const out = await client.send(
          new sdk.GetItemCommand({
            TableName: options.table,
            Key: { [PK]: { S: storageKey(key) } },
            ConsistentRead: true,
          }),
          { abortSignal: call?.signal },
        );
        const doc = out.Item?.doc?.S;
        return doc === undefined ? undefined : (JSON.parse(doc) as TaskRecord);
      } catch (error) {
        throw new TaskStoreError('get', { cause: error });
      }
    },
    async replace(record, call) {
      try {
        const { sdk, client } = await load();
        await client.send(
          new sdk.PutItemCommand({
            TableName: options.table,
            Item: item(record),
            ConditionExpression: '#rev = :read',
            ExpressionAttributeNames: { '#rev': 'rev' },
            ExpressionAttributeValues: { ':read': { N: String(record.revision - 1) } },
          }),
          { abortSignal: call?.signal },
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw new TaskStoreError('replace', { cause: error });
      }
    },
  };
}
