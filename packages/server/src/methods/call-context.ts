import type { InputTarget } from '../codec/codec.ts';
import { ToolError } from '../contracts/tool-error.ts';
import type { InputContext } from '../input/input-required.ts';
import type { ResultOffloader } from '../outputs/offloader.ts';
import { isShortEcho } from '../protocol/client-text.ts';
import { isJsonObject } from '../protocol/json.ts';
import { LOGGING_LEVELS, type JSONObject, type ServerCapabilities } from '../protocol/types.ts';
import type { CallContext } from '../tools/registry.ts';
import { callerKey, ownerKey, type MethodContext } from './method.ts';

/** Counts the bytes a request's tool call stores, for its record. */
export type StoredBytes = (bytes: number) => void;

/** What a tool call's context is built from, beside the request. */
export interface CallContextOptions {
  capabilities: ServerCapabilities;
  offloader?: ResultOffloader;
}

/** Where a tool call's stored outputs go and whose they are. */
export const offloadContext = (ctx: MethodContext, tool: string, onStored: StoredBytes | undefined) => ({
  tool,
  requestId: ctx.requestId,
  log: ctx.log,
  ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
  ...(onStored ? { onStored } : {}),
  ...ownerKey(ctx),
});

/** What a tool handler gets besides its arguments and signal: progress, log messages, storage, client input. */
export function toolContext(
  options: CallContextOptions,
  params: JSONObject,
  ctx: MethodContext,
  { target, input }: { target: InputTarget; input: InputContext },
  onStored: StoredBytes | undefined,
): CallContext {
  const meta = isJsonObject(params._meta) ? params._meta : {};
  // Every progress notification repeats the token whole: one too long to repeat gets no progress at all.
  const token = meta.progressToken;
  const progressToken =
    (typeof token === 'string' || typeof token === 'number') && isShortEcho(token) ? token : undefined;
  const threshold = options.capabilities.logging ? ctx.codec.logThreshold(meta) : -1;
  const { revision } = ctx.codec;
  return {
    requestId: ctx.requestId,
    era: revision.era,
    protocolVersion: revision.protocolVersion,
    log: ctx.log,
    ...(ctx.principal !== undefined ? { principal: ctx.principal } : {}),
    progress(progress, total, message) {
      if (progressToken === undefined) return;
      ctx.emit({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message ? { message } : {}),
        },
      });
    },
    notify(level, data) {
      if (threshold < 0 || LOGGING_LEVELS.indexOf(level) < threshold) return;
      ctx.emit({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level, logger: target.name, data },
      });
    },
    closeStream: () => ctx.live?.cut() ?? false,
    store: async (request, signal) => {
      if (!options.offloader) {
        throw new ToolError(
          'This server has no storage for outputs (OFFLOAD_BUCKET is not set), so nothing can be stored.',
        );
      }
      const offload = offloadContext(ctx, target.name, onStored);
      return options.offloader.store(request, { ...offload, ...(signal ? { signal } : {}) });
    },
    ...input,
    asker: ctx.codec.asker({
      input,
      ...(ctx.live ? { live: ctx.live } : {}),
      ...(ctx.session ? { session: ctx.session } : {}),
      ...callerKey(ctx),
      callId: ctx.id,
      log: ctx.log,
    }),
  };
}
