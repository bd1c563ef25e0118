/**
 * `@mcp-lambda/server/internal`: what this project's other packages share with the server and a template user never
 * needs: the framing of Lambda response streaming (the local runtime speaks it), the messages between the MCP
 * function and its companion. Audience: this project's packages only. No compatibility promise.
 */

// ## Lambda response streaming, as the runtime frames it (experimental)
export {
  lambdaStreamingRuntime,
  portableStreamingRuntime,
  PRELUDE_DELIMITER,
  type HttpResponsePrelude,
  type LambdaResponseStream,
  type LambdaStreamingRuntime,
} from './lambda/stream-runtime.ts';

// ## The companion function's contract (experimental)
export type { StoredReadRequest, StoredReadResponse } from './outputs/companion/contract.ts';
export type { StoredPageRequest, StoredPageResponse } from './outputs/companion/page-contract.ts';
