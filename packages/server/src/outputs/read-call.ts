import type { CallToolResult, JSONObject } from '../protocol/types.ts';
import { clientText } from '../protocol/client-text.ts';
import type { ToolContext } from '../contracts/tool-context.ts';
import { ToolError } from '../contracts/tool-error.ts';
import type { OutputPage, OutputPager } from './paging/page.ts';
import { pageBudget, readQuery, type ReadOutputArgs } from './read-query.ts';

/**
 * One call of `read_output`: its arguments become a page query, the pager reads the page, and the page becomes the
 * tool's result (or a refusal the model can act on). Loaded on the tool's first call (`read-tool.ts`).
 */

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
 * A page as the model and the client get it: the summary, then the page text exactly (no block when it is empty).
 * `structuredContent` carries the same two, with the page's position, so a client that shows only the structured
 * result (or only the text blocks) still gets the whole page and how to go on. The summary holds the note.
 */
function pageResult(page: OutputPage): CallToolResult {
  const { text, summary, note: _note, search, csv, ...facts } = page;
  const structured: JSONObject = {
    summary,
    ...facts,
    ...(search ? { search: { ...search, matches: search.matches.map((m) => m.line) } } : {}),
    // The header row starts the page text of every CSV page.
    ...(csv ? { csv: (({ header: _header, ...rest }) => rest)(csv) } : {}),
    text,
  };
  return {
    content: [{ type: 'text', text: summary }, ...(text ? [{ type: 'text' as const, text }] : [])],
    structuredContent: structured,
  };
}

/** Reads the page the arguments ask for; every failure is a `ToolError` saying what happened. */
export async function readOutputPage(
  options: ReadOutputToolOptions,
  args: ReadOutputArgs,
  ctx: ToolContext,
): Promise<CallToolResult> {
  const query = readQuery(args, pageBudget(options.thresholdBytes));
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
}
