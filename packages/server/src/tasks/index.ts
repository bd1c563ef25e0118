/**
 * `@mcp-lambda/server/worker`: the task worker function's `createTaskWorker`, which runs tasks' tools to completion.
 * A face of its own: only the worker function needs it; task stores, launchers and types are on the package's `.`.
 */
// ## The task worker function (experimental)
export { createTaskWorker, type TaskWorkerOptions } from './worker.ts';
