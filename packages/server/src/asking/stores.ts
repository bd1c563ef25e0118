import { loadAsking } from './lazy.ts';
import type { DynamoRendezvousOptions } from './rendezvous-table.ts';
import type { RendezvousStore } from './rendezvous.ts';

/**
 * The rendezvous stores a function creates at cold start, as stand-ins whose code (rendezvous.ts,
 * dynamodb-rendezvous.ts) loads with the asking extension on the first question or answer.
 */

/** The store's methods, each forwarded to the store once it is made. */
const METHODS = [
  'open',
  'answer',
  'cancel',
  'cancelled',
  'read',
  'close',
  'startLog',
  'appendEvent',
  'readHead',
  'readEvent',
] as const satisfies readonly (keyof RendezvousStore)[];

/** Every method of the store is forwarded: a method missing from METHODS fails the type check here. */
type Unforwarded = Exclude<keyof RendezvousStore, (typeof METHODS)[number]>;
const everyMethod: [Unforwarded] extends [never] ? true : never = true;
void everyMethod;

/** A store made on first use. */
function deferredStore(make: () => Promise<RendezvousStore>): RendezvousStore {
  let real: Promise<RendezvousStore> | undefined;
  const store = () => (real ??= make());
  const forward =
    (name: (typeof METHODS)[number]) =>
    async (...args: unknown[]) =>
      ((await store())[name] as (...a: unknown[]) => unknown)(...args);
  return Object.fromEntries(METHODS.map((name) => [name, forward(name)])) as unknown as RendezvousStore;
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
