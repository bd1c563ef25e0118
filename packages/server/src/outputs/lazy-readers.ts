import { deferred } from '../lazy.ts';
import type { ResourceProvider } from '../resources/provider.ts';
import type { RemoteStoredOutputsOptions } from './companion/ask.ts';
import type { OutputPager } from './paging/page.ts';
import type { StoredOutputsOptions } from './reader.ts';
import { hasOutputScheme } from './uri.ts';

/**
 * The readers of stored outputs as a function's start-up graph sees them: each answers `owns` at once and loads its
 * code (`reader.ts`, `companion/client.ts`) on its first read, since most cold starts read no stored output. These
 * are the names the `./lambda` face exports: anything a face reaches through a static import is in the start-up graph
 * of every function that imports the face.
 */

/** Stored outputs read in this process, from the bucket (see `reader.ts`). */
export function storedOutputs(options: StoredOutputsOptions): ResourceProvider {
  return deferred<ResourceProvider, Pick<ResourceProvider, 'owns'>>(
    async () => (await import('./reader.ts')).storedOutputs(options),
    { read: true },
    { owns: hasOutputScheme },
  );
}

/** Stored outputs read through the companion function, pages included (see `companion/client.ts`). */
export function remoteStoredOutputs(options: RemoteStoredOutputsOptions): ResourceProvider & OutputPager {
  return deferred<ResourceProvider & OutputPager, Pick<ResourceProvider, 'owns'>>(
    async () => (await import('./companion/client.ts')).remoteStoredOutputs(options),
    { read: true, readPage: true },
    { owns: hasOutputScheme },
  );
}
