/**
 * The public module of the task worker function: `createTaskWorker`, which runs tasks' tools to completion. It is
 * kept off `packages/server/src/index.ts` (see its top) because the worker's run code (claims, leases, the task policy) shares
 * modules with the tasks extension that the MCP function loads only on first use: re-exported there, it would sit
 * in that function's start-up graph. Task stores, launchers and types stay on `packages/server/src/index.ts`.
 */
export { createTaskWorker, type TaskWorkerOptions } from './worker.ts';
