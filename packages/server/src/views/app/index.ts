/**
 * The view side of MCP Apps: what a view (a page the host shows in a sandboxed frame) imports to talk to its host.
 * It runs in the browser, so it is a public module of its own (`@mcp-lambda/server/view`), bundled into each view
 * at build time; no server code imports it. docs/views.md shows a view written with it.
 */
// ## The view's connection to its host (experimental)
export { connectView, type ConnectOptions, type ViewConnection, type ViewHandlers } from './client.ts';
export { applyHostContext } from './theme.ts';
// ## The MCP Apps messages a view exchanges, named as in the specification (experimental)
export {
  VIEW_PROTOCOL_VERSION,
  ViewRequestError,
  type CallToolResult,
  type ContentBlock,
  type HostContext,
  type HostTheme,
  type JSONObject,
  type ModelContextUpdate,
  type ReadResourceResult,
  type ResourceContents,
} from './protocol.ts';
