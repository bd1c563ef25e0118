/**
 * `node:crypto`, loaded on first use: importing it costs about 4 ms, a third of the MCP function's cold start,
 * while the first request rarely needs it (ids of stored outputs and tasks, sealed request state, subscription ids
 * do). `process.getBuiltinModule` loads a builtin synchronously, so callers stay synchronous.
 */
export const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');
