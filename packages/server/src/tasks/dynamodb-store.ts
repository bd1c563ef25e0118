import { deferred } from '../lazy.ts';
import type { TaskStore } from './store.ts';
import type { DynamoTaskStoreOptions } from './task-table.ts';

export { TaskTableAttributes, type DynamoTaskStoreOptions } from './task-table.ts';

/**
 * Task records in a DynamoDB table, for every instance of a deployed function (dynamodb-records.ts): a stand-in made
 * at cold start whose code loads on the first task operation, so a function that runs no task never loads it.
 */
export function dynamoTaskStore(options: DynamoTaskStoreOptions): TaskStore {
  return deferred<TaskStore>(async () => (await import('./dynamodb-records.ts')).dynamoTaskRecords(options), {
    create: true,
    get: true,
    replace: true,
  });
}
