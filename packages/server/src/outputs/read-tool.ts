import type { CallToolResult, JSONObject, JsonSchema } from '../protocol/types.ts';
import { clientText } from '../protocol/client-text.ts';
import { defineTool, type ToolDefinition } from '../tools/define.ts';
import { ToolError } from '../tools/tool-error.ts';
import type { OutputPage, OutputPager } from './paging/page.ts';
import { pageBudget, readQuery, type ReadOutputArgs } from './read-query.ts';

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
 * Where a page lies, for clients that read positions rather than prose: the page text and its summary are in
 * `content` only (frameworks that hand the model both channels would otherwise show the page twice).
 */
export const READ_OUTPUT_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    uri: { type: 'string' },
    mode: { enum: ['bytes', 'lines', 'search', 'json', 'csv'] },
    size: { type: 'integer' },
    nextOffset: { type: 'integer' },
    nextLine: { type: 'integer' },
  },
  required: ['uri', 'mode', 'size'],
} as const satisfies JsonSchema;

/** The tool's name and schemas alone: build-time validator generation covers them (`packages/server/src/build/validators.ts`). */
export const READ_OUTPUT_SCHEMAS = {
  name: READ_OUTPUT_TOOL,
  inputSchema: READ_OUTPUT_INPUT_SCHEMA,
  outputSchema: READ_OUTPUT_OUTPUT_SCHEMA,
};

const DESCRIPTION =
  'Reads a large output a tool stored (the mcp-output:// uri of its resource link or notice) a page at a time. ' +
  'Pass the uri alone to start; each page says what to pass next. To start elsewhere pass one of offset, line, ' +
  'search, pointer or row.';

/** What the tool needs: a way to read pages, and the offload threshold its pages must stay under. */
export interface ReadOutputToolOptions {
  pager: OutputPager;
  thresholdBytes: number;
}

/** The not-found answer, the same for unknown, expired, malformed and other callers' URIs. */
const notFound = (uri: string) =>
  `No stored output was found for uri ${JSON.stringify(clientText(uri))}. Stored outputs expire, and each is ` +
  'readable only by the caller it was made for. Pass the uri exactly as the resource link gave it, or call the ' +
  'tool that produced the output again.';

/**
 * A page as the model and the client get it: the summary, then the page text exactly (no block when it is empty),
 * and the page's position in `structuredContent`, without any text of the output or prose.
 */
export function pageResult(page: OutputPage): CallToolResult {
  const { text, summary, note: _note, search, csv, ...facts } = page;
  const position: JSONObject = {
    ...facts,
    ...(search ? { search: { ...search, matches: search.matches.map((m) => m.line) } } : {}),
    ...(csv ? { csv: (({ header: _header, ...rest }) => rest)(csv) } : {}),
  };
  return {
    content: [{ type: 'text', text: summary }, ...(text ? [{ type: 'text' as const, text }] : [])],
    structuredContent: position,
  };
}

/** The built-in tool, bound to a pager. */
export function readOutputTool(options: ReadOutputToolOptions): ToolDefinition {
  const budget = pageBudget(options.thresholdBytes);
  return defineTool({
    name: READ_OUTPUT_TOOL,
    title: 'Read a stored output',
    description: DESCRIPTION,
    inputSchema: READ_OUTPUT_INPUT_SCHEMA,
    outputSchema: READ_OUTPUT_OUTPUT_SCHEMA,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: async (args, ctx) => {
      const query = readQuery(args as ReadOutputArgs, budget);
      if ('refuse' in query) throw new ToolError(query.refuse);
      const outcome = await options.pager.readPage(args.uri, query, {
        era: ctx.era,
        requestId: ctx.requestId,
        log: ctx.log,
        // The companion invoke ends with the tool's time budget.
        signal: ctx.signal,
        ...(ctx.principal !== undefined ? { principal: ctx.principal.key } : {}),
      });
      switch (outcome.status) {
        case 'page':
          return pageResult(outcome.page);
        case 'not_found':
          throw new ToolError(notFound(args.uri));
        case 'refused':
          throw new ToolError(outcome.message);
        case 'unavailable':
          throw new ToolError(
            `The stored output could not be read right now (request id ${ctx.requestId}); try again shortly.`,
          );
      }
    },
  });
}
