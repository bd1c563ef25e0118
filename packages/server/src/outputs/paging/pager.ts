import { errorFields } from '../../log.ts';
import { OutputLimits } from '../../limits.ts';
import type { ResourceContext } from '../../resources/provider.ts';
import { StorageError, type RangeReader } from '../../storage/storage.ts';
import { ownerTag } from '../object-info.ts';
import { formatSize } from '../sizes.ts';
import { outputUriParser } from '../uri.ts';
import { bytesPage } from './bytes.ts';
import { csvPage } from './csv-page.ts';
import { jsonPage } from './json.ts';
import { linesPage } from './lines.ts';
import { locateOutput, OutputChangedError, type LocatedOutput } from './locate.ts';
import { describePage } from './describe.ts';
import type { OutputFacts, OutputPager, PageBody, PageOutcome, PageQuery } from './page.ts';
import { PageRefusal } from './page.ts';
import { searchPage } from './search.ts';

/** Where pages are read from. */
export interface PagerOptions {
  storage: RangeReader;
  /** The key prefix outputs were written under. */
  prefix: string;
  /** Clock (tests). */
  now?: () => number;
  /** Time a scan may take before it answers with what it has. Default `OutputLimits.scanBudgetMs`. */
  scanBudgetMs?: number;
}

function bodyOf(
  storage: RangeReader,
  located: LocatedOutput,
  query: PageQuery,
  deadline: number,
): Promise<PageBody> {
  switch (query.mode) {
    case 'bytes':
      return bytesPage(storage, located, query);
    case 'lines':
      return linesPage(storage, located, query, deadline);
    case 'search':
      return searchPage(storage, located, query, deadline);
    case 'json':
      return jsonPage(storage, located, query);
    case 'csv':
      return csvPage(storage, located, query, deadline);
  }
}

/** The storage as one page reads it: every call ends when `signal` fires (the invocation's deadline). */
function boundTo(storage: RangeReader, signal: AbortSignal | undefined): RangeReader {
  if (!signal) return storage;
  return {
    getRange: (key, start, end) => storage.getRange(key, start, end, { signal }),
    stream: (key, start) => storage.stream(key, start, { signal }),
  };
}

/** What a binary output can tell instead of a page. */
function binaryRefusal(facts: OutputFacts): string {
  const hash = facts.sha256 ? `, SHA-256 ${facts.sha256}` : '';
  return (
    `${facts.uri} is binary (${facts.mimeType}, ${formatSize(facts.size)}${hash}), so it cannot be read as text ` +
    `or in pages. Read it with resources/read, which returns it whole as a base64 blob; it stays available until ` +
    `${facts.expiresAt}.`
  );
}

/**
 * Pages of stored outputs straight from storage: the reading engine of `read_output`, run by the companion function
 * (and by in-process servers in tests). The MCP function reaches it through the companion, so its bundle carries
 * none of it. Same addressing and isolation as `resources/read`: a URI is parsed strictly before any storage access,
 * and unknown, malformed, expired and other callers' outputs all come back `not_found`. Refusals are answers the
 * model can act on; storage failures, and reads still unanswered when `ctx.signal` fires, are logged here and
 * answered `unavailable`.
 */
export function storedOutputPages(options: PagerOptions): OutputPager {
  const parse = outputUriParser(options.prefix);
  const now = options.now ?? Date.now;
  const scanBudgetMs = options.scanBudgetMs ?? OutputLimits.scanBudgetMs;
  return {
    async readPage(uri: string, query: PageQuery, ctx: ResourceContext): Promise<PageOutcome> {
      const address = parse(uri);
      if (!address) return { status: 'not_found' };
      const storage = boundTo(options.storage, ctx.signal);
      const { prefix } = options;
      try {
        const owner = ownerTag(ctx.principal);
        const located = await locateOutput({ storage, prefix, owner, now: now() }, uri, address);
        if (!located) return { status: 'not_found' };
        if (located.encoding === 'binary')
          return { status: 'refused', message: binaryRefusal(located.facts) };
        const body = await bodyOf(storage, located, query, Date.now() + scanBudgetMs);
        return { status: 'page', page: { ...body, summary: describePage(body) } };
      } catch (error) {
        if (error instanceof PageRefusal) return { status: 'refused', message: error.message };
        if (!(error instanceof StorageError || error instanceof OutputChangedError)) throw error;
        ctx.log.error('stored output page failed', { uri, mode: query.mode, error: errorFields(error) });
        return { status: 'unavailable' };
      }
    },
  };
}
