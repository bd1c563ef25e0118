import { deadlineSignal } from '../../deadline.ts';
import { errorFields, withKeys, type Logger } from '../../log.ts';
import { McpError } from '../../protocol/errors.ts';
import type { ResourceProvider } from '../../resources/provider.ts';
import { isJsonObject } from '../../protocol/json.ts';
import type { OutputPager } from '../paging/page.ts';
import { parseStoredReadRequest, STORED_READ_VERSION, type StoredReadResponse } from './contract.ts';
import { STORED_PAGE_VERSION, type StoredPageResponse } from './page-contract.ts';
import { createStoredPageHandler } from './page-handler.ts';

/**
 * The companion function's logic: check the request against the contract, read through the same provider the
 * MCP function uses in-process, and answer with a contract response. Failures are logged here and answered
 * `unavailable` without detail; this is the one place the companion turns errors into answers. Version-2 requests
 * (pages, `page-handler.ts`) are answered when a pager is given (`storedOutputPages`).
 */
export function createStoredReadHandler(provider: ResourceProvider, log: Logger, pager?: OutputPager) {
  const pages = pager ? createStoredPageHandler(pager, log) : undefined;
  /** `context` is the Lambda context: its remaining time bounds the storage reads (of a read or a page). */
  return async function handle(
    event: unknown,
    context?: { getRemainingTimeInMillis?(): number },
  ): Promise<StoredReadResponse | StoredPageResponse> {
    const remaining = context?.getRemainingTimeInMillis?.();
    const deadline = remaining === undefined ? undefined : Date.now() + remaining;
    if (isJsonObject(event) && event.version === STORED_PAGE_VERSION) {
      return pages ? pages(event, deadline) : { version: STORED_PAGE_VERSION, status: 'invalid_request' };
    }
    const request = parseStoredReadRequest(event);
    if (!request) {
      log.warn('invalid stored-read request');
      return { version: STORED_READ_VERSION, status: 'invalid_request' };
    }
    const { requestId } = request;
    const scoped = withKeys(log, { requestId });
    const signal = deadlineSignal(deadline);
    try {
      const read = provider.owns(request.uri)
        ? await provider.read(request.uri, {
            era: request.era,
            requestId,
            log: scoped,
            ...(signal ? { signal } : {}),
            ...(request.principal !== undefined ? { principal: request.principal } : {}),
          })
        : undefined;
      if (!read || read.contents.length === 0) return { version: STORED_READ_VERSION, status: 'not_found' };
      return {
        version: STORED_READ_VERSION,
        status: 'found',
        contents: read.contents,
        ttlMs: read.cache?.ttlMs ?? 0,
      };
    } catch (error) {
      // The provider logs storage failures itself before answering with an McpError.
      if (!(error instanceof McpError))
        scoped.error('stored read failed', { uri: request.uri, error: errorFields(error) });
      return { version: STORED_READ_VERSION, status: 'unavailable' };
    }
  };
}
