import type { ResultOffloader } from '../dispatcher.ts';
import type { Logger } from '../log.ts';
import type { CallToolResult, ResourceLink } from '../protocol/types.ts';
import type { StorageWriter } from '../storage/storage.ts';
import { ToolError } from '../tools/define.ts';
import { toolErrorResult } from '../tools/result.ts';
import { ownerTag, sha256Hex, toAttributes } from './object-info.ts';
import {
  offloadLimits,
  planExplicitStore,
  planOffload,
  type OffloadLimits,
  type PlannedPayload,
} from './policy.ts';
import { payloadLinks, type StoredPayload } from './summary.ts';
import { newOutputId, outputKey, outputUri } from './uri.ts';

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

type OffloadContext = Parameters<ResultOffloader['apply']>[1] & { structuredContentRequired?: boolean };

const DAY_MS = 86_400_000;

/** Runs `jobs` with at most `limit` in flight; rejects with the first failure. */
async function runAll(jobs: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}

/**
 * The offload policy wired to storage: plugs into the dispatcher's `ResultOffloader` hook, so it applies to every
 * tool result in one place, and serves `ctx.store()`. A storage failure never yields a truncated success: the
 * call answers `isError` saying the output could not be stored.
 */
export function createOffloader(options: OffloaderOptions): ResultOffloader {
  const limits: OffloadLimits = { ...offloadLimits(options.thresholdBytes), ...options.limits };
  const now = options.now ?? Date.now;
  const newId = options.newId ?? newOutputId;
  const concurrency = options.concurrency ?? 4;

  /** Writes one payload (all its parts) and describes what was stored. */
  function write(payload: PlannedPayload, expiresAt: number, owner: string | undefined) {
    const id = newId();
    const multi = payload.parts.length > 1;
    const parts = payload.parts.map((bytes, i) => {
      const address = multi ? { id, part: i + 1 } : { id };
      return {
        id,
        bytes,
        key: outputKey(options.prefix, address, owner),
        uri: outputUri(options.prefix, address),
        size: bytes.byteLength,
        sha256: sha256Hex(bytes),
      };
    });
    const jobs = parts.map(
      (p) => () =>
        options.storage.put(
          p.key,
          p.bytes,
          toAttributes({
            mimeType: payload.mimeType,
            encoding: payload.encoding,
            size: p.size,
            sha256: p.sha256,
            expiresAt,
            ...(owner !== undefined ? { owner } : {}),
          }),
        ),
    );
    const whole = multi ? sha256Hex(payload.parts) : parts[0]!.sha256;
    const { parts: _bytes, ...described } = payload;
    const stored: StoredPayload = {
      ...described,
      sha256: whole,
      expiresAt,
      parts: parts.map(({ uri, size, sha256 }) => ({ uri, size, sha256, id })),
    };
    return { jobs, stored };
  }

  function logFailure(log: Logger, tool: string, error: unknown) {
    log.error('offload failed', {
      tool,
      error: error instanceof Error ? { name: error.name, message: error.message } : String(error),
    });
  }

  return {
    async apply(result: CallToolResult, ctx: OffloadContext): Promise<CallToolResult> {
      const plan = planOffload(result, limits, {
        tool: ctx.tool,
        structuredContentRequired: ctx.structuredContentRequired === true,
      });
      if (plan.action === 'keep') return result;
      if (plan.action === 'refuse') {
        ctx.log.warn('output refused', { tool: ctx.tool });
        return toolErrorResult(plan.message);
      }
      const expiresAt = now() + options.ttlDays * DAY_MS;
      const owner = ownerTag(ctx.principal);
      const writes = plan.payloads.map((p) => write(p, expiresAt, owner));
      try {
        await runAll(
          writes.flatMap((w) => w.jobs),
          concurrency,
        );
      } catch (error) {
        logFailure(ctx.log, ctx.tool, error);
        const bytes = plan.payloads.reduce((n, p) => n + p.size, 0);
        return toolErrorResult(
          `The output of tool "${ctx.tool}" (${bytes.toLocaleString('en-US')} bytes) was too large to return ` +
            `inline and could not be stored (storage is unavailable right now), so no output was returned. ` +
            `Try the call again shortly. Request id: ${ctx.requestId}.`,
        );
      }
      ctx.log.info('output offloaded', {
        tool: ctx.tool,
        objects: writes.reduce((n, w) => n + w.stored.parts.length, 0),
        bytes: writes.reduce((n, w) => n + w.stored.size, 0),
      });
      return plan.assemble(writes.map((w) => w.stored));
    },

    async store(request, ctx): Promise<ResourceLink> {
      const plan = planExplicitStore(request, limits, ctx.tool);
      if ('refuse' in plan) throw new ToolError(plan.refuse);
      const { jobs, stored } = write(plan.payload, now() + options.ttlDays * DAY_MS, ownerTag(ctx.principal));
      try {
        await runAll(jobs, concurrency);
      } catch (error) {
        logFailure(ctx.log, ctx.tool, error);
        throw new ToolError(
          `The output of tool "${ctx.tool}" could not be stored (storage is unavailable right now), so no link ` +
            `was returned. Try the call again shortly. Request id: ${ctx.requestId}.`,
        );
      }
      const named: StoredPayload = {
        ...stored,
        ...(request.name !== undefined ? { name: request.name } : {}),
        ...(request.title !== undefined ? { title: request.title } : {}),
        ...(request.description !== undefined ? { description: request.description } : {}),
      };
      return payloadLinks(ctx.tool, named)[0]!;
    },
  };
}
