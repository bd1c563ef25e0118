import { deferred } from '../lazy.ts';
import { loadAsking } from './lazy.ts';
import type { DynamoRendezvousOptions } from './rendezvous-table.ts';
import type { RendezvousStore } from './rendezvous.ts';

/**
 * The rendezvous stores a function creates at cold start, as stand-ins whose code (rendezvous.ts,
 * dynamodb-rendezvous.ts) loads with the asking extension on the first question or answer.
 */

/** A store made on first use, every method forwarded to it. */
const deferredStore = (make: () => Promise<RendezvousStore>): RendezvousStore =>
  deferred<RendezvousStore>(make, {
    open: true,
    answer: true,
    cancel: true,
    cancelled: true,
    read: true,
    close: true,
    startLog: true,
    appendEvent: true,
    readHead: true,
    readEvent: true,
  });

/**
 * Questions in this process's memory: for `npm start` and tests, where one process serves every request. Behind a
 * load balancer with several instances use `dynamoRendezvous`.
 */
export const memoryRendezvous = (): RendezvousStore =>
  deferredStore(() => loadAsking().then((m) => m.memoryRendezvousStore()));

/** Questions in a DynamoDB table (dynamodb-rendezvous.ts): any instance may receive the answer. */
export const dynamoRendezvous = (options: DynamoRendezvousOptions): RendezvousStore =>
  deferredStore(() => loadAsking().then((m) => m.dynamoRendezvousStore(options)));
