/**
 * `@mcp-lambda/server/worker`: the task worker function's `createTaskWorker`, which runs tasks' tools to completion,
 * and `createTaskWorkerFunction`, which builds it from the environment. Audience: the worker function's entry alone; task stores and launchers are on `./aws` and `./backend`. Experimental.
 */
// ## The task worker function (experimental)
export { createTaskWorker, type TaskWorkerOptions } from '../function/task-worker.ts';
// Built from the environment, as the template's worker entry runs it.
export { createTaskWorkerFunction, type TaskWorkerFunctionOptions } from '../function/worker-function.ts';
