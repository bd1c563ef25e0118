import type { AwsClientOptions } from '../aws-client.ts';

/**
 * The DynamoDB table of the call state: what the stack creates (its key schema and TTL) and what the stores read,
 * shared by the start-up stand-in (stand-ins.ts) and the stores it loads (dynamodb.ts).
 */

/** The one table of the three stores, and how to reach the service (request timeout default 5,000 ms). */
export interface DynamoCallStateOptions extends AwsClientOptions {
  /** Table with a string partition key `pk` and TTL on the number attribute `expiresAt` (the stack creates it). */
  table: string;
}

/** Attribute names of the table's items; the key schema and TTL attribute must match the table's. */
export const CallStateTableAttributes = { partitionKey: 'pk', ttl: 'expiresAt' } as const;

/** @deprecated Renamed `DynamoCallStateOptions` (the previous release's name). */
export type DynamoRendezvousOptions = DynamoCallStateOptions;

/** @deprecated Renamed `CallStateTableAttributes` (the previous release's name). */
export const RendezvousTableAttributes = { ...CallStateTableAttributes } as const;
