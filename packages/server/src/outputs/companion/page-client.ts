import type { ResourceContext } from '../../resources/provider.ts';
import type { OutputPager, PageOutcome, PageQuery } from '../paging/page.ts';
import { outputUriParser } from '../uri.ts';
import { askCompanion, requestEnvelope, type RemoteStoredOutputsOptions } from './ask.ts';
import { parseStoredPageResponse, STORED_PAGE_VERSION, type StoredPageRequest } from './page-contract.ts';

/**
 * Pages of stored outputs read by the companion function (contract version 2): the URI is checked here first, so
 * a malformed one never leaves this function; an invoke failure, an answer of another version or shape, or a page
 * for another URI is logged and answered `unavailable`.
 */
export function remoteOutputPager(options: RemoteStoredOutputsOptions): OutputPager {
  const parse = outputUriParser(options.prefix);
  return {
    async readPage(uri: string, query: PageQuery, ctx: ResourceContext): Promise<PageOutcome> {
      if (!parse(uri)) return { status: 'not_found' };
      // The era goes by its wire name (`requestEnvelope`); the rest is the request as the contract types it.
      const request = {
        version: STORED_PAGE_VERSION,
        ...requestEnvelope(uri, ctx),
        query,
      } satisfies Omit<StoredPageRequest, 'era'>;
      const asked = await askCompanion(options.invoke, request, ctx);
      if (asked === 'failed') return { status: 'unavailable' };
      const response = parseStoredPageResponse(asked.answer);
      if (response?.status === 'page' && response.page.uri === uri && response.page.mode === query.mode)
        return { status: 'page', page: response.page };
      if (response?.status === 'refused') return { status: 'refused', message: response.message };
      if (response?.status === 'not_found') return { status: 'not_found' };
      ctx.log.error('companion answer refused', { uri, status: response?.status ?? 'malformed' });
      return { status: 'unavailable' };
    },
  };
}
