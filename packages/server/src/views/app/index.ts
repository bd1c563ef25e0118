/**
 * The view side of MCP Apps: what a view (a page the host shows in a sandboxed frame) imports to talk to its host.
 * It runs in the browser, so it is a public module of its own (`@mcp-lambda/server/view`), bundled into each view
 * at build time; no server code imports it. Audience: a view's author (the template's `src/views/`). The
 * wire types it reads are on `./protocol`, which loads in a browser too. docs/views.md shows a view written with it.
 * Experimental.
 */
// ## The view's connection to its host (experimental)
export { connectView, type ConnectOptions, type ViewConnection, type ViewHandlers } from './client.ts';
export { applyHostContext } from './theme.ts';
// ## The MCP Apps messages a view exchanges, named as in the specification (experimental)
export {
  VIEW_PROTOCOL_VERSION,
  ViewRequestError,
  type HostContext,
  type HostTheme,
  type ModelContextUpdate,
  type ReadResourceResult,
} from './protocol.ts';
// ## What a gated tool's result proposes, for the approval view (experimental)
export { APPROVAL_META_KEY, type Proposal } from '../../contracts/proposal.ts';
