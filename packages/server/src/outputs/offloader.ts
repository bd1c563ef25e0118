import { errorFields } from '../log.ts';
import type { CallToolResult, ResourceLink } from '../protocol/types.ts';
import type { StorageWriter } from '../storage/storage.ts';
import type { StoreRequest } from '../contracts/tool-context.ts';
import { ToolError } from '../contracts/tool-error.ts';
import { toolErrorResult } from '../tools/result.ts';
import { layoutMetadata, partFacts } from './layout.ts';
import { ownerTag, sha256Hex, toAttributes } from './object-info.ts';
import { offloadLimits, planExplicitStore, planOffload, type OffloadLimits } from './policy.ts';
import type { PlannedPayload } from './payloads.ts';
import { payloadLinks, type StoredPayload } from './summary.ts';
import { newOutputId, outputKey, outputUri } from './uri.ts';
import { writeAll, type ObjectWrite, type StoreFailure } from './writes.ts';
import { storeStream } from './stream-store.ts';
import { removeStoredOutput, type RemoveContext } from './remove.ts';
import type { StreamSink } from '../tools/streamed.ts';
import type { OffloadContext } from './offload-context.ts';

/** Post-processing applied to every tool result in one place (the tool methods call it), and `ctx.store()`. */
export interface ResultOffloader {
  /** A block above this many bytes is stored (pages read back stay under it). */
  readonly thresholdBytes: number;
  /**
   * Stores the large parts of a result and links them; `structuredContentRequired` when the tool has an
   * outputSchema, `maxInlineBytes` to keep less inline than usual (a task's result must fit its record).
   */
  apply(result: CallToolResult, ctx: OffloadContext & ApplyOptions): Promise<CallToolResult>;
  store(request: StoreRequest, ctx: OffloadContext): Promise<ResourceLink>;
  /**
   * Where the streamed outputs of one call go: each is stored in parts while it is produced (inline when it ends
   * under the threshold), and replaced by a notice and its links.
   */
  streams(ctx: OffloadContext): StreamSink;
  /**
   * Deletes a stored output of the caller before it expires (every object it may consist of); false for a URI that
   * is not a stored output's. It cannot tell whether the output existed: ask a reader first.
   */
  remove(uri: string, ctx: RemoveContext): Promise<boolean>;
}

/** How one result is offloaded, beside who produced it. */
export interface ApplyOptions {
  structuredContentRequired?: boolean;
  /** A lower cap on what stays inline than the offloader's own. */
  maxInlineBytes?: number;
}

/** What the offloader needs: where to write, under which prefix, and for how long outputs stay readable. */
export interface OffloaderOptions {
  storage: StorageWriter;
  /** Key prefix, e.g. `outputs/` (also part of every URI). */
  prefix: string;
  /** A block above this many bytes is stored and linked. */
  thresholdBytes: number;
  /** Lifetime of stored outputs in days; the bucket's lifecycle rule must expire them no earlier. */
  ttlDays: number;
  /** Overrides of the limits derived from the threshold (tests). */
  limits?: Partial<OffloadLimits>;
  /** Parallel writes per result. Default 4. */
  concurrency?: number;
  /** Clock and id source (tests). */
  now?: () => number;
  newId?: () => string;
}

const DAY_MS = 86_400_000;

/** One payload ready to write: an object per part, and the description of what will be stored. */
interface PayloadWrite {
  objects: ObjectWrite[];
  stored: StoredPayload;
}

/**
 * The offload policy wired to storage: the tool methods hand every tool result to `apply`, so it applies in one
 * place, and `ctx.store()` calls `store`. A storage failure never yields a truncated success: the call answers
 * `isError` saying the output could not be stored.
 */
class Offloader implements ResultOffloader {
  private readonly limits: OffloadLimits;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly concurrency: number;
  /** The notices of streamed outputs this offloader stored: they stand for an output and stay inline. */
  private readonly notices = new WeakSet<object>();

  get thresholdBytes(): number {
    return this.limits.thresholdBytes;
  }

  constructor(private readonly options: OffloaderOptions) {
    this.limits = { ...offloadLimits(options.thresholdBytes), ...options.limits };
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? newOutputId;
    this.concurrency = options.concurrency ?? 4;
  }

  remove(uri: string, ctx: RemoveContext): Promise<boolean> {
    return removeStoredOutput(this.options.storage, this.options.prefix, uri, ctx);
  }

  async apply(result: CallToolResult, ctx: OffloadContext & ApplyOptions) {
    // An error is never stored: it may quote the client's input, and it must reach the model as it is.
    if (result.isError === true) return result;
    const limits =
      ctx.maxInlineBytes === undefined
        ? this.limits
        : { ...this.limits, maxInlineBytes: Math.min(this.limits.maxInlineBytes, ctx.maxInlineBytes) };
    const plan = planOffload(result, limits, {
      tool: ctx.tool,
      placed: (b) => this.notices.has(b),
      structuredContentRequired: ctx.structuredContentRequired === true,
      ...(ctx.readTool !== undefined ? { readTool: ctx.readTool } : {}),
    });
    if (plan.action === 'keep') return result;
    if (plan.action === 'refuse') {
      ctx.log.warn('output refused', { tool: ctx.tool });
      return toolErrorResult(plan.message);
    }
    const expiresAt = this.expiresAt();
    const owner = ownerTag(ctx.principal);
    const writes = plan.payloads.map((p) => this.write(p, expiresAt, owner));
    const failure = await this.writeAll(
      writes.flatMap((w) => w.objects),
      ctx,
    );
    if (failure) {
      const bytes = plan.payloads.reduce((n, p) => n + p.size, 0);
      return toolErrorResult(
        `The output of tool "${ctx.tool}" (${bytes.toLocaleString('en-US')} bytes) was too large to return ` +
          `inline and could not be stored (${why(failure)}), so no output was returned. ` +
          `Try the call again shortly. Request id: ${ctx.requestId}.`,
      );
    }
    const bytes = writes.reduce((n, w) => n + w.stored.size, 0);
    ctx.log.info('output offloaded', {
      tool: ctx.tool,
      objects: writes.reduce((n, w) => n + w.stored.parts.length, 0),
      bytes,
    });
    ctx.onStored?.(bytes);
    return plan.assemble(writes.map((w) => w.stored));
  }

  async store(request: StoreRequest, ctx: OffloadContext): Promise<ResourceLink> {
    const plan = planExplicitStore(request, this.limits, ctx.tool);
    if ('refuse' in plan) throw new ToolError(plan.refuse);
    const { objects, stored } = this.write(plan.payload, this.expiresAt(), ownerTag(ctx.principal));
    const failure = await this.writeAll(objects, ctx);
    if (failure) {
      throw new ToolError(
        `The output of tool "${ctx.tool}" could not be stored (${why(failure)}), so no link ` +
          `was returned. Try the call again shortly. Request id: ${ctx.requestId}.`,
      );
    }
    ctx.onStored?.(stored.size);
    const named: StoredPayload = {
      ...stored,
      ...(request.name !== undefined ? { name: request.name } : {}),
      ...(request.title !== undefined ? { title: request.title } : {}),
      ...(request.description !== undefined ? { description: request.description } : {}),
    };
    return payloadLinks(ctx.tool, named)[0]!;
  }

  streams(ctx: OffloadContext): StreamSink {
    return (content, signal) =>
      storeStream(content, signal, ctx, {
        storage: this.options.storage,
        prefix: this.options.prefix,
        id: this.newId(),
        expiresAt: this.expiresAt(),
        owner: ownerTag(ctx.principal),
        limits: this.limits,
        concurrency: this.concurrency,
        notices: this.notices,
      });
  }

  /** Writes all objects of one store, all or nothing; logs a failure with what it left behind. */
  private async writeAll(objects: ObjectWrite[], ctx: OffloadContext): Promise<StoreFailure | undefined> {
    const failure = await writeAll(this.options.storage, objects, {
      concurrency: this.concurrency,
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    if (failure) {
      ctx.log.error('offload failed', {
        tool: ctx.tool,
        error: errorFields(failure.error),
        timedOut: failure.timedOut,
        objects: objects.length,
        started: failure.started,
        removed: failure.removed,
      });
    }
    return failure;
  }

  private expiresAt(): number {
    return this.now() + this.options.ttlDays * DAY_MS;
  }

  /** Prepares the writes of one payload (all its parts) and describes what will be stored. */
  private write(payload: PlannedPayload, expiresAt: number, owner: string | undefined): PayloadWrite {
    const { prefix } = this.options;
    const id = this.newId();
    const multi = payload.parts.length > 1;
    const parts = payload.parts.map((bytes, i) => {
      const address = multi ? { id, part: i + 1 } : { id };
      return {
        bytes,
        key: outputKey(prefix, address, owner),
        uri: outputUri(prefix, address),
        size: bytes.byteLength,
        sha256: sha256Hex(bytes),
      };
    });
    const sha256 = multi ? sha256Hex(payload.parts) : parts[0]!.sha256;
    // The first object also describes the whole (lines, part table), so a page can be read with no scan.
    const layout = layoutMetadata(payload.parts.map(partFacts), payload.encoding, sha256);
    const attributes = (p: { size: number; sha256: string }, i: number) => {
      const own = toAttributes({
        mimeType: payload.mimeType,
        encoding: payload.encoding,
        size: p.size,
        sha256: p.sha256,
        expiresAt,
        ...(owner !== undefined ? { owner } : {}),
      });
      return i === 0 ? { ...own, metadata: { ...own.metadata, ...layout } } : own;
    };
    const { parts: _bytes, ...described } = payload;
    return {
      objects: parts.map((p, i) => ({ key: p.key, body: p.bytes, attributes: attributes(p, i) })),
      stored: {
        ...described,
        sha256,
        expiresAt,
        parts: parts.map(({ uri, size, sha256 }) => ({ uri, size, sha256, id })),
      },
    };
  }
}

/** Why storing failed, in words for the model: out of time, or storage unavailable. */
const why = (failure: StoreFailure) =>
  failure.timedOut
    ? 'storage did not answer in time, before the end of the call'
    : 'storage is unavailable right now';

/** Wires the offload policy to storage (see {@link OffloaderOptions}). */
export function createOffloader(options: OffloaderOptions): ResultOffloader {
  return new Offloader(options);
}
