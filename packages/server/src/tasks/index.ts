/**
 * `@mcp-lambda/server/worker`: the task worker function's `createTaskWorker`, which runs tasks' tools to completion.
 * Audience: the worker function's entry alone; task stores and launchers are on `./aws` and `./backend`. Experimental.
 */
// ## The task worker function (experimental)
export { createTaskWorker, type TaskWorkerOptions } from './worker.ts';
