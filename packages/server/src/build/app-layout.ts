/**
 * Where an app keeps its files, relative to its folder: the layout `npm create mcp-lambda` writes and the
 * repository's root has. Its one home: the CDK bundles the function entries from these paths, and the development
 * commands load them and generate from and into them.
 */
export const APP_LAYOUT = {
  /** The function entries, each a few lines over the packages. */
  functions: {
    /** The MCP function (HTTP API). */
    mcp: 'functions/mcp/handler.ts',
    /** The same MCP function with response streaming (`api: 'rest-streaming'`). */
    mcpStreaming: 'functions/mcp/streaming.ts',
    /** The companion resources function: the only reader of stored outputs. */
    companion: 'functions/companion/handler.ts',
    /** The OAuth authorization bridge. */
    authorization: 'functions/authorization/handler.ts',
    /** The task worker. */
    worker: 'functions/worker/handler.ts',
  },
  /** The module whose `tools` lists the app's tools. */
  tools: 'src/tools/index.ts',
  /** The views' sources, one folder each. */
  views: 'src/views',
  /** The validators' table (`validators.generated.ts`), their folder (`validators/`) and the views (`views/`). */
  generated: 'src/generated',
} as const;
