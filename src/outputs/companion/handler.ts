import { errorFields, withKeys, type Logger } from '../../log.ts';
import { McpError } from '../../protocol/errors.ts';
import type { ResourceProvider } from '../../resources/provider.ts';
import { parseStoredReadRequest, STORED_READ_VERSION, type StoredReadResponse } from './contract.ts';

/**
 * The companion function's logic: check the request against the contract, read through the same provider the
 * MCP function uses in-process, and answer with a contract response. Failures are logged here and answered
 * `unavailable` without detail; this is the one place the companion turns errors into answers.
 */
export function createStoredReadHandler(provider: ResourceProvider, log: Logger) {
  return async function handle(event: unknown): Promise<StoredReadResponse> {
    const request = parseStoredReadRequest(event);
    if (!request) {
      log.warn('invalid stored-read request');
      return { version: STORED_READ_VERSION, status: 'invalid_request' };
    }
    const { requestId } = request;
    const scoped = withKeys(log, { requestId });
    try {
      const read = provider.owns(request.uri)
        ? await provider.read(request.uri, {
            era: request.era,
            requestId,
            log: scoped,
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
