import { outputUriParser, hasOutputScheme } from '../uri.ts';
import type { ResourceContext, ResourceProvider, ResourceReadResult } from '../../resources/provider.ts';
import { parseStoredReadResponse, STORED_READ_VERSION, type StoredReadRequest } from './contract.ts';
import { OutputUnavailableError } from '../../protocol/errors.ts';
import type { OutputPager } from '../paging/page.ts';
import { askCompanion, requestEnvelope, type RemoteStoredOutputsOptions } from './ask.ts';

/**
 * Serves `resources/read` for stored outputs by handing each request to the companion resources function, which
 * alone may read the bucket. Same ownership and answers as `storedOutputs`; malformed URIs never leave this
 * function, and any failure or unexpected answer of the companion is a -32603 with a safe message. Pages for
 * `read_output` go the same way (contract version 2, `page-client.ts`).
 */
export function remoteStoredOutputs(options: RemoteStoredOutputsOptions): ResourceProvider & OutputPager {
  const parse = outputUriParser(options.prefix);
  return {
    owns: hasOutputScheme,
    // Paging code (contract version 2) loads with the first page asked for: most cold starts read none.
    readPage: async (uri, query, ctx) =>
      (await import('./page-client.ts')).remoteOutputPager(options).readPage(uri, query, ctx),
    async read(uri: string, ctx: ResourceContext): Promise<ResourceReadResult | undefined> {
      if (!parse(uri)) return undefined;
      // The era goes by its wire name (`requestEnvelope`); the rest is the request as the contract types it.
      const request = {
        version: STORED_READ_VERSION,
        ...requestEnvelope(uri, ctx),
      } satisfies Omit<StoredReadRequest, 'era'>;
      const asked = await askCompanion(options.invoke, request, ctx);
      if (asked === 'failed') throw new OutputUnavailableError(ctx.requestId);
      const response = parseStoredReadResponse(asked.answer);
      if (response?.status === 'not_found') return undefined;
      if (response?.status === 'found' && response.contents.every((c) => c.uri === uri)) {
        return { contents: response.contents, cache: { ttlMs: response.ttlMs, cacheScope: 'private' } };
      }
      ctx.log.error('companion answer refused', { uri, status: response?.status ?? 'malformed' });
      throw new OutputUnavailableError(ctx.requestId);
    },
  };
}
