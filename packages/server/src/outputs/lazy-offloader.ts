import { once } from '../lazy.ts';
import { OutputLimits } from '../limits.ts';
import type { CallToolResult } from '../protocol/types.ts';
import type { OffloadContext } from './offload-context.ts';
import type { ApplyOptions, OffloaderOptions, ResultOffloader } from './offloader.ts';

/**
 * The offloader as a function's start-up graph sees it: the writing code (`offloader.ts`: policy, parts, hashing,
 * streamed stores, about 15 KB) is imported with `await import()` on the first result that may need storing, the
 * first streamed output or the first `ctx.store()`, never at cold start. Other modules import `offloader.ts` only for
 * its types: a bundle keeps a module out of the start-up graph only when nothing there imports it statically.
 */

/**
 * Whether a result is certainly kept as it is: its whole serialization fits under the threshold and every inline
 * cap, so no block (text bytes, base64 length) nor structuredContent can exceed either (`policy.ts`). Anything
 * else, and anything that does not serialize, goes to the real policy.
 */
function certainlyInline(result: CallToolResult, bound: number): boolean {
  let json: string;
  try {
    json = JSON.stringify(result);
  } catch {
    return false;
  }
  // A UTF-8 byte count is at most 3 per UTF-16 unit: the cheap bound first, the exact count only near the bound.
  return json.length * 3 <= bound || Buffer.byteLength(json, 'utf8') <= bound;
}

/** Wires the offload policy to storage (see {@link OffloaderOptions}); its code loads when first needed. */
export function createOffloader(options: OffloaderOptions): ResultOffloader {
  const thresholdBytes = options.limits?.thresholdBytes ?? options.thresholdBytes;
  const maxInlineBytes =
    options.limits?.maxInlineBytes ?? Math.min(3 * thresholdBytes, OutputLimits.maxInlineBytes);
  let real: ResultOffloader | undefined;
  const load = once(async () => (real = (await import('./offloader.ts')).createOffloader(options)));
  return {
    thresholdBytes,
    async apply(result: CallToolResult, ctx: OffloadContext & ApplyOptions) {
      if (real) return real.apply(result, ctx);
      // An error is never stored (the offloader's rule): no need to load it for one.
      if (result.isError === true) return result;
      const bound = Math.min(thresholdBytes, maxInlineBytes, ctx.maxInlineBytes ?? Infinity);
      if (certainlyInline(result, bound)) return result;
      return (await load()).apply(result, ctx);
    },
    async store(request, ctx) {
      return (await load()).store(request, ctx);
    },
    streams(ctx) {
      return async (content, signal) => (await load()).streams(ctx)(content, signal);
    },
    async remove(uri, ctx) {
      return (await load()).remove(uri, ctx);
    },
  };
}
