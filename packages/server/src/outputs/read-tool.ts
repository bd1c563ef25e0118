import type { JSONObject, JsonSchema } from '../protocol/types.ts';
import { clientText } from '../protocol/client-text.ts';
import { defineTool, type ToolDefinition } from '../tools/define.ts';
import { ToolError } from '../tools/tool-error.ts';
import type { OutputPager } from './paging/page.ts';
import { pageBudget, readQuery, type ReadOutputArgs } from './read-query.ts';

/**
 * `read_output`: the built-in tool that lets a model follow the pointer a large output became, a bounded page at a
 * time, with nothing but tool calls (many hosts give the model tools and never `resources/read`). The server
 * registers it whenever outputs are offloaded and can be read back (README "Large outputs").
 */

export const READ_OUTPUT_TOOL = 'read_output';

// Schemas are plain literals (no helper calls), so bundles that do not register the tool drop them.
// Positions go up to 10^12, far past any output (100 parts of 5 MiB).

export const READ_OUTPUT_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    uri: {
      type: 'string',
      description:
        "The mcp-output:// URI from the output's resource link or notice (for one in parts, any part's URI)",
    },
    offset: {
      type: 'integer',
      minimum: 0,
      maximum: 1_000_000_000_000,
      description: 'Byte offset to start at; the default way to read, from 0',
    },
    line: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000_000_000,
      description: 'Line to start at, 1-based (with search: where the search starts)',
    },
    search: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: 'Literal text (not a pattern) to find: the lines containing it, numbered, with context',
    },
    ignoreCase: { type: 'boolean', description: 'With search: ignore case' },
    context: {
      type: 'integer',
      minimum: 0,
      maximum: 10,
      description: 'With search: lines shown around each match (default 2)',
    },
    pointer: {
      type: 'string',
      maxLength: 2000,
      description: 'JSON Pointer (RFC 6901) into a JSON output, e.g. "/items/0"; "" is the whole document',
    },
    item: {
      type: 'integer',
      minimum: 0,
      maximum: 1_000_000_000_000,
      description: 'With pointer: array item (or object member) to start at, 0-based',
    },
    row: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000_000_000,
      description: 'CSV data row to start at, 1-based; the header row is repeated on every page',
    },
    count: {
      type: 'integer',
      minimum: 1,
      maximum: 1_048_576,
      description:
        'How much per page: bytes (default half a page), lines (100), matching lines (20), items (50) or rows ' +
        '(50); a page never grows past its size limit',
    },
  },
  required: ['uri'],
  additionalProperties: false,
} as const satisfies JsonSchema;

/** What a page holds: the fields every page has are declared and checked; the others are named in `summary`'s terms. */
export const READ_OUTPUT_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    uri: { type: 'string' },
    mode: { enum: ['bytes', 'lines', 'search', 'json', 'csv'] },
    summary: {
      type: 'string',
      description: 'Where the page lies in the output, and how to get the next one',
    },
    text: { type: 'string', description: 'The page' },
  },
  required: ['uri', 'mode', 'summary', 'text'],
  description:
    'Also: mimeType, size, sha256, lines and expiresAt of the whole output; offset, length, nextOffset, line, ' +
    'lastLine, nextLine, truncated and note of the page; search, json or csv with what the selection found.',
} as const satisfies JsonSchema;

/** The tool's name and schemas alone: build-time validator generation covers them (`packages/server/src/build/validators.ts`). */
export const READ_OUTPUT_SCHEMAS = {
  name: READ_OUTPUT_TOOL,
  inputSchema: READ_OUTPUT_INPUT_SCHEMA,
  outputSchema: READ_OUTPUT_OUTPUT_SCHEMA,
};

const DESCRIPTION =
  'Reads a large output a tool stored instead of returning (a resource link, or a notice naming an mcp-output:// ' +
  'URI) one bounded page at a time. Pass the uri alone for the first page; each page says which argument gets ' +
  'the next. Start elsewhere with one of: offset (bytes), line (a line range), search (lines containing a literal ' +
  'text, numbered, with context and a match count), pointer (a JSON Pointer into JSON; arrays paged by item) or ' +
  'row (CSV rows, header repeated); count sets how much. Any part URI of an output stored in parts reads the ' +
  'whole output. Binary outputs (images, audio) are not text: use resources/read for those.';

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
          return {
            content: [{ type: 'text', text: `${outcome.page.summary}\n\n${outcome.page.text || '(empty)'}` }],
            structuredContent: outcome.page as unknown as JSONObject,
          };
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
