import { awsClientConfig, lazyAwsClient } from '../aws-client.ts';
import { dynamoCancellations } from './dynamodb-cancellations.ts';
import { dynamoQuestions } from './dynamodb-questions.ts';
import { dynamoStreamLog } from './dynamodb-stream-log.ts';
import type { CallStateTable } from './dynamodb-table.ts';
import type { CallState } from './stores.ts';
import type { DynamoCallStateOptions } from './table.ts';

/**
 * The call state in one DynamoDB table: questions and cancellations in the items of the calls' slots, stream logs in
 * items of their own (`log.` keys). One client for the three, its SDK imported on first use (the Lambda runtime
 * provides it).
 */
export function dynamoCallStateStores(options: DynamoCallStateOptions): CallState {
  const load = lazyAwsClient(
    () => import('@aws-sdk/client-dynamodb'),
    (sdk) => new sdk.DynamoDBClient(awsClientConfig(options, 5_000)),
    options.instrument,
  );
  const table: CallStateTable = { name: options.table, load };
  return {
    questions: dynamoQuestions(table),
    cancellations: dynamoCancellations(table),
    streamLog: dynamoStreamLog(table),
  };
}
