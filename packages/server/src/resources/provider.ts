import type { Logger } from '../log.ts';
import type { CacheHint, Resource, ResourceContents, ResourceTemplate } from '../protocol/types.ts';
import type { Era } from '../protocol/versions.ts';

/** What a resource provider learns about the request it serves. */
export interface ResourceContext {
  era: Era;
  requestId: string;
  principal?: string;
  log: Logger;
  /**
   * On `read`: fires shortly before the invocation's deadline. Pass it to every outbound call, so a slow backend
   * ends in an honest error rather than a stopped invocation.
   */
  signal?: AbortSignal;
}

/** A successful read; `cache` feeds the 2026-07-28 `ttlMs`/`cacheScope` hints. */
export interface ResourceReadResult {
  contents: ResourceContents[];
  cache?: CacheHint;
}

/**
 * A source of resources (spec: server/resources). The server asks each provider in turn whether it owns a URI,
 * and the first owner reads it. Returning `undefined` from `read` means "not found"; the server turns that into
 * the era's not-found error, so unknown, malformed and expired URIs look the same to the client.
 */
export interface ResourceProvider {
  /** Whether this provider is responsible for the URI (cheap, no I/O). */
  owns(uri: string): boolean;
  read(uri: string, ctx: ResourceContext): Promise<ResourceReadResult | undefined>;
  /** Concrete resources to advertise in `resources/list`. */
  list?(ctx: ResourceContext): Resource[] | Promise<Resource[]>;
  /** URI templates to advertise in `resources/templates/list`. */
  templates?(): ResourceTemplate[];
  /** Suggestions for one variable of one of this provider's URI templates (`completion/complete`, ref/resource). */
  complete?(uriTemplate: string, argument: string, value: string): string[] | Promise<string[]>;
}
