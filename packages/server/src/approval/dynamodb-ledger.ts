import { awsClientConfig, lazyAwsClient, type AwsClientOptions } from '../aws-client.ts';
import { nodeCrypto } from '../crypto.ts';
import { TaskTableAttributes } from '../tasks/dynamodb-store.ts';
import type { ApprovalLedger } from './ledger.ts';

/** Where used approvals are recorded (request timeout default 5,000 ms). */
export interface DynamoApprovalLedgerOptions extends AwsClientOptions {
  /**
   * A table with a string partition key `pk` and TTL on the number attribute `expiresAt`: the task table fits
   * (approval items are `approval#<id>`, apart from task keys), and the MCP function may already put items there.
   */
  table: string;
}

const isConditionFailure = (error: unknown) =>
  (error as { name?: string })?.name === 'ConditionalCheckFailedException';

/**
 * Used approvals in DynamoDB: one conditional put per approval (only where no item is), so of two instances racing
 * with the same proof exactly one wins. The item carries a token of its own write, so that when the SDK sends the
 * put again (its first response was lost after the table took it) the failed condition is recognised as this call's
 * own record, not as an approval used before. The item expires with the approval (the table's TTL). The SDK is
 * imported on first use and is provided by the Lambda runtime.
 */
export function dynamoApprovalLedger(options: DynamoApprovalLedgerOptions): ApprovalLedger {
  const load = lazyAwsClient(
    () => import('@aws-sdk/client-dynamodb'),
    (sdk) => new sdk.DynamoDBClient(awsClientConfig(options, 5_000)),
    options.instrument,
  );
  const { partitionKey: PK, ttl: TTL } = TaskTableAttributes;
  return {
    shared: true,
    async consume(id, expiresAt, call) {
      const { sdk, client } = await load();
      const key = { [PK]: { S: `approval#${id}` } };
      const writer = nodeCrypto().randomBytes(12).toString('base64url');
      try {
        await client.send(
          new sdk.PutItemCommand({
            TableName: options.table,
            Item: { ...key, [TTL]: { N: String(Math.ceil(expiresAt / 1000)) }, writer: { S: writer } },
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': PK },
          }),
          { abortSignal: call?.signal },
        );
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const held = await client.send(
          new sdk.GetItemCommand({ TableName: options.table, Key: key, ConsistentRead: true }),
          { abortSignal: call?.signal },
        );
        return held.Item?.writer?.S === writer;
      }
    },
  };
}
