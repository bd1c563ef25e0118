import type { AwsClientOptions } from '../aws-client.ts';

/** Where the records live and how to reach the service (request timeout default 5,000 ms). */
export interface DynamoTaskStoreOptions extends AwsClientOptions {
  /** Table with a string partition key `pk` and TTL on the number attribute `expiresAt` (the stack creates it). */
  table: string;
}

/** Attribute names of a task item; the key schema and TTL attribute must match the table's. */
export const TaskTableAttributes = { partitionKey: 'pk', ttl: 'expiresAt' } as const;
