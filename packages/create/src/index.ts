/**
 * `create-mcp-lambda`: writes a new MCP server app on AWS Lambda from the mcp-lambda reference app. Its bin is what
 * `npm create mcp-lambda@latest <folder>` runs; `createApp` does the same from code.
 */
// ## Creating an app (experimental)
export { createApp, CreateError, type CreateOptions } from './scaffold.ts';
// ## The command line (experimental)
export { main, nextSteps, USAGE } from './cli.ts';
// ## The choices an app is created with (experimental)
export type { ApiChoice, AuthChoice } from './transforms.ts';
