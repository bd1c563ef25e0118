import { deadlineSignal } from '../deadline.ts';
import { listFingerprint, paginate } from '../protocol/cursor.ts';
import { InvalidParamsError } from '../protocol/errors.ts';
import type { ResourceContext, ResourceProvider } from '../resources/provider.ts';
import { ownerKey, type MethodContext, type MethodTable } from './method.ts';

/** What the resource methods work with. */
export interface ResourceMethodsOptions {
  resources: readonly ResourceProvider[];
  pageSize: number;
}

const resourceContext = (ctx: MethodContext): ResourceContext => ({
  era: ctx.codec.revision.era,
  requestId: ctx.requestId,
  log: ctx.log,
  ...ownerKey(ctx),
});

/**
 * `resources/list`, `resources/templates/list` and `resources/read` over the providers, asked in turn. A URI no
 * provider owns, and one its owner cannot find, get the revision's not-found error alike.
 */
export function resourceMethods(options: ResourceMethodsOptions): MethodTable {
  const { resources, pageSize } = options;
  return {
    'resources/list': {
      handler: async (params, ctx) => {
        const all = (await Promise.all(resources.map((p) => p.list?.(resourceContext(ctx)) ?? []))).flat();
        const fingerprint = listFingerprint(all.map((r) => r.uri));
        const { page, nextCursor } = paginate(all, params.cursor, pageSize, 'resources', fingerprint);
        return { resources: page, ...(nextCursor ? { nextCursor } : {}) };
      },
    },
    'resources/templates/list': {
      handler: async (params) => {
        const all = resources.flatMap((p) => p.templates?.() ?? []);
        const fingerprint = listFingerprint(all.map((t) => t.uriTemplate));
        const { page, nextCursor } = paginate(all, params.cursor, pageSize, 'templates', fingerprint);
        return { resourceTemplates: page, ...(nextCursor ? { nextCursor } : {}) };
      },
    },
    'resources/read': {
      handler: async (params, ctx) => {
        const uri = params.uri;
        if (typeof uri !== 'string' || uri.length === 0)
          throw new InvalidParamsError('uri must be a non-empty string');
        const provider = resources.find((p) => p.owns(uri));
        const signal = provider && deadlineSignal(ctx.deadline);
        const read = provider
          ? await provider.read(uri, { ...resourceContext(ctx), ...(signal ? { signal } : {}) })
          : undefined;
        if (!read || read.contents.length === 0) throw ctx.codec.resourceNotFound(uri);
        // Cache hints are data here; the codec keeps them for the revision that has them.
        return { contents: read.contents, ...(read.cache ?? { ttlMs: 0, cacheScope: 'private' }) };
      },
    },
  };
}
