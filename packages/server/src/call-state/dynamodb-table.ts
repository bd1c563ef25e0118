import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { CallStateTableAttributes } from './table.ts';

/** The call state's table and its lazily made client, shared by the three stores on it. */
export interface CallStateTable {
  name: string;
  load: () => Promise<{
    sdk: typeof import('@aws-sdk/client-dynamodb');
    client: import('@aws-sdk/client-dynamodb').DynamoDBClient;
  }>;
}

export type Item = Record<string, AttributeValue>;

/** An item outlives what it holds by this much before the table's TTL may delete it (TTL deletes late anyway). */
const TTL_GRACE_SECONDS = 60;

/** The key of an item. */
export const keyOf = (pk: string): Item => ({ [CallStateTableAttributes.partitionKey]: { S: pk } });

/** The TTL attribute's value of an item served until `until` (epoch ms). */
export const ttlOf = (until: number): AttributeValue => ({
  N: String(Math.ceil(until / 1000) + TTL_GRACE_SECONDS),
});

export const isConditionFailure = (error: unknown) =>
  (error as { name?: string })?.name === 'ConditionalCheckFailedException';

/** An item, read strongly consistent. */
export async function getItem(
  table: CallStateTable,
  Key: Item,
  signal?: AbortSignal,
): Promise<Item | undefined> {
  const { sdk, client } = await table.load();
  const out = await client.send(
    new sdk.GetItemCommand({ TableName: table.name, Key, ConsistentRead: true }),
    {
      abortSignal: signal,
    },
  );
  return out.Item as Item | undefined;
}
