import { deadlineSignal } from '../../deadline.ts';
import { errorFields, withKeys, type Logger } from '../../log.ts';
import type { OutputPager } from '../paging/page.ts';
import { parseStoredPageRequest, STORED_PAGE_VERSION, type StoredPageResponse } from './page-contract.ts';

/**
 * The companion's answer to a version-2 request: check it against the contract and read the page through the same
 * pager the MCP function uses in-process (the search and selections run here, with bounded memory). Every storage
 * read ends before `deadline` (epoch ms, the companion invocation's): a read still unanswered then is `unavailable`.
 */
export function createStoredPageHandler(pager: OutputPager, log: Logger) {
  return async function handlePage(event: unknown, deadline?: number): Promise<StoredPageResponse> {
    const request = parseStoredPageRequest(event);
    if (!request) {
      log.warn('invalid stored-page request');
      return { version: STORED_PAGE_VERSION, status: 'invalid_request' };
    }
    const { requestId } = request;
    const scoped = withKeys(log, { requestId });
    const signal = deadlineSignal(deadline);
    try {
      const outcome = await pager.readPage(request.uri, request.query, {
        era: request.era,
        requestId,
        log: scoped,
        ...(signal ? { signal } : {}),
        ...(request.principal !== undefined ? { principal: request.principal } : {}),
      });
      return { version: STORED_PAGE_VERSION, ...outcome };
    } catch (error) {
      scoped.error('stored page failed', { uri: request.uri, error: errorFields(error) });
      return { version: STORED_PAGE_VERSION, status: 'unavailable' };
    }
  };
}
