import { loadAsking } from './lazy.ts';
import type { DynamoRendezvousOptions } from './rendezvous-table.ts';
import type { RendezvousStore } from './rendezvous.ts';

/**
 * The rendezvous stores a function creates at cold start, as stand-ins whose code (rendezvous.ts,
 * dynamodb-rendezvous.ts) loads with the asking extension on the first question or answer.
 */

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
    startLog: async (...args) => (await store()).startLog(...args),
    appendEvent: async (...args) => (await store()).appendEvent(...args),
    readHead: async (...args) => (await store()).readHead(...args),
    readEvent: async (...args) => (await store()).readEvent(...args),
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
