import type { AwsClientOptions } from '../aws-client.ts';

/**
 * The DynamoDB table questions wait in: what the stack creates (its key schema and TTL) and what the store reads,
 * shared by the start-up stand-in (stores.ts) and the store it loads (dynamodb-rendezvous.ts).
 */

/** Where questions wait and how to reach the service (request timeout default 5,000 ms). */
export interface DynamoRendezvousOptions extends AwsClientOptions {
  /** Table with a string partition key `pk` and TTL on the number attribute `expiresAt` (the stack creates it). */
  table: string;
}

/** Attribute names of a question item; the key schema and TTL attribute must match the table's. */
export const RendezvousTableAttributes = { partitionKey: 'pk', ttl: 'expiresAt' } as const;
