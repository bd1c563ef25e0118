import { deferred, once } from '../lazy.ts';
import type { CallState, CancellationStore, QuestionStore, StreamLog } from '../call-state/stores.ts';
import type { DynamoCallStateOptions } from '../call-state/table.ts';
import { loadAsking } from './lazy.ts';

/**
 * The call state a function creates at cold start, as stand-ins whose code (call-state/memory.ts,
 * call-state/dynamodb.ts) loads with the asking extension on the first question, answer, cancellation or stream log.
 */

/** A call state made on first use: each store's every method forwarded to it. */
function deferredCallState(make: () => Promise<CallState>): CallState {
  const real = once(make);
  return {
    questions: deferred<QuestionStore>(async () => (await real()).questions, {
      open: true,
      answer: true,
      read: true,
      close: true,
    }),
    cancellations: deferred<CancellationStore>(async () => (await real()).cancellations, {
      cancel: true,
      cancelled: true,
    }),
    streamLog: deferred<StreamLog>(async () => (await real()).streamLog, {
      startLog: true,
      appendEvent: true,
      readHead: true,
      readEvent: true,
    }),
  };
}

/**
 * The call state in this process's memory: for `npm start` and tests, where one process serves every request. Behind
 * a load balancer with several instances use `dynamoCallState`.
 */
export const memoryCallState = (): CallState =>
  deferredCallState(() => loadAsking().then((m) => m.memoryCallStateStores()));

/** The call state in one DynamoDB table (call-state/dynamodb.ts): any instance may receive the answer. */
export const dynamoCallState = (options: DynamoCallStateOptions): CallState =>
  deferredCallState(() => loadAsking().then((m) => m.dynamoCallStateStores(options)));

// The names of the previous release, kept so an app written against it compiles unchanged (docs/upgrading.md).

/** @deprecated Renamed `memoryCallState`: the same call state, under its one name. */
export const memoryRendezvous = (): CallState => memoryCallState();

/** @deprecated Renamed `dynamoCallState`: the same call state, under its one name. */
export const dynamoRendezvous = (options: DynamoCallStateOptions): CallState => dynamoCallState(options);

/**
 * @deprecated Renamed `CallState`, which splits the store in three (`questions`, `cancellations`, `streamLog`), each
 * method taking its arguments as one object.
 */
export type RendezvousStore = CallState;

/** @deprecated Renamed `StreamLog`, each method taking its arguments as one object. */
export type EventLog = StreamLog;
