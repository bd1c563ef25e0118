import type { JsonSchema } from '../protocol/types.ts';
import { defineTool, type ToolDefinition } from '../tools/define.ts';
import type { ReadOutputToolOptions } from './read-call.ts';
import type { ReadOutputArgs } from './read-query.ts';

/**
 * `read_output`: the built-in tool that lets a model follow the pointer a large output became, a bounded page at a
 * time, with nothing but tool calls (many hosts give the model tools and never `resources/read`). The server
 * registers it whenever outputs are offloaded and can be read back (docs/outputs.md).
 */

export const READ_OUTPUT_TOOL = 'read_output';

// Schemas are plain literals (no helper calls), so bundles that do not register the tool drop them. Hosts send
// every definition with every model call, so they say only what the model needs to call it; each page says the rest
// (where it lies, how to go on), and refusals say what else to do. Sizes and positions are bounded in `readQuery`.

export const READ_OUTPUT_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    uri: { type: 'string', description: 'The mcp-output:// uri' },
    offset: { type: 'integer', minimum: 0, description: 'Byte offset' },
    line: { type: 'integer', minimum: 1, description: 'Line, 1-based; with search, where to start' },
    search: { type: 'string', minLength: 1, description: 'Literal text to find' },
    ignoreCase: { type: 'boolean' },
    context: { type: 'integer', minimum: 0, maximum: 10, description: 'Lines around a match (2)' },
    pointer: { type: 'string', description: 'JSON Pointer, e.g. "/items"' },
    item: { type: 'integer', minimum: 0, description: 'With pointer: first item, 0-based' },
    row: { type: 'integer', minimum: 1, description: 'CSV data row, 1-based' },
    count: { type: 'integer', minimum: 1, description: 'Bytes, lines, matches, items or rows' },
  },
  required: ['uri'],
  additionalProperties: false,
} as const satisfies JsonSchema;

/**
 * What every page carries: its summary (where it lies, how to go on) and its text, so the structured result is a
 * whole page for clients that show only it. Positions that apply to some pages (`nextOffset`, `search`, `csv`, …)
 * are in the result but not listed: the definition is sent with every model call (docs/read-output.md).
 */
export const READ_OUTPUT_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    uri: { type: 'string' },
    mode: { enum: ['bytes', 'lines', 'search', 'json', 'csv'] },
    size: { type: 'integer' },
    summary: { type: 'string' },
    text: { type: 'string' },
  },
  required: ['uri', 'mode', 'size', 'summary', 'text'],
} as const satisfies JsonSchema;

/** The tool's name and schemas alone: build-time validator generation covers them (`packages/server/src/build/validators.ts`). */
export const READ_OUTPUT_SCHEMAS = {
  name: READ_OUTPUT_TOOL,
  inputSchema: READ_OUTPUT_INPUT_SCHEMA,
  outputSchema: READ_OUTPUT_OUTPUT_SCHEMA,
};

const DESCRIPTION =
  'Reads a large output a tool stored (the mcp-output:// uri its notice and link give) a page at a time. ' +
  'Pass the uri alone to start; each page says what to pass next. To start elsewhere pass one of offset, line, ' +
  'search, pointer or row.';

/** The built-in tool, bound to a pager. */
export function readOutputTool(options: ReadOutputToolOptions): ToolDefinition {
  return defineTool({
    name: READ_OUTPUT_TOOL,
    title: 'Read a stored output',
    description: DESCRIPTION,
    inputSchema: READ_OUTPUT_INPUT_SCHEMA,
    outputSchema: READ_OUTPUT_OUTPUT_SCHEMA,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // Turning the arguments into a query and a page into a result is loaded on the first call: listing the tool
    // needs only its definition.
    handler: async (args, ctx) =>
      (await import('./read-call.ts')).readOutputPage(options, args as ReadOutputArgs, ctx),
  });
}
