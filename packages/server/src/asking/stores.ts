import type { AwsClientOptions } from '../aws-client.ts';
import { loadAsking } from './lazy.ts';
import type { RendezvousStore } from './rendezvous.ts';

/**
 * The rendezvous stores a function creates at cold start, as stand-ins whose code (rendezvous.ts,
 * dynamodb-rendezvous.ts) loads with the asking extension on the first question or answer.
 */

/** Where questions wait and how to reach the service (request timeout default 5,000 ms). */
export interface DynamoRendezvousOptions extends AwsClientOptions {
  /** Table with a string partition key `pk` and TTL on the number attribute `expiresAt` (the stack creates it). */
  table: string;
}

/** Attribute names of a question item; the key schema and TTL attribute must match the table's. */
export const RendezvousTableAttributes = { partitionKey: 'pk', ttl: 'expiresAt' } as const;

/** A store made on first use. */
function deferredStore(make: () => Promise<RendezvousStore>): RendezvousStore {
  let real: Promise<RendezvousStore> | undefined;
  const store = () => (real ??= make());
  return {
    open: async (...args) => (await store()).open(...args),
    answer: async (...args) => (await store()).answer(...args),
    cancel: async (...args) => (await store()).cancel(...args),
    read: async (...args) => (await store()).read(...args),
    close: async (...args) => (await store()).close(...args),
  };
}

/**
 * Questions in this process's memory: for `npm start` and tests, where one process serves every request. Behind a
 * load balancer with several instances use `dynamoRendezvous`.
 */
export const memoryRendezvous = (): RendezvousStore =>
  deferredStore(() => loadAsking().then((m) => m.memoryRendezvousStore()));

/** Questions in a DynamoDB table (dynamodb-rendezvous.ts): any instance may receive the answer. */
export const dynamoRendezvous = (options: DynamoRendezvousOptions): RendezvousStore =>
  deferredStore(() => loadAsking().then((m) => m.dynamoRendezvousStore(options)));
