import { errorFields } from '../../log.ts';
import { eraToWire } from '../../protocol/versions.ts';
import type { ResourceContext } from '../../resources/provider.ts';

/**
 * Sends a JSON request to the companion and returns its JSON answer (a Lambda invoke when deployed). `signal`
 * fires before the caller's deadline: the invoke must then fail at once.
 */
export type InvokeCompanion = (payload: string, options?: { signal?: AbortSignal }) => Promise<string>;

/** How to reach the companion. */
export interface RemoteStoredOutputsOptions {
  invoke: InvokeCompanion;
  /** The key prefix outputs were written under: URIs are checked here before anything is sent. */
  prefix: string;
}

/**
 * What every companion request carries, beside its version and its own fields: who asks, about which output, in
 * which era (by its wire name, `eraToWire`).
 */
export function requestEnvelope(uri: string, ctx: ResourceContext) {
  return {
    uri,
    requestId: ctx.requestId,
    era: eraToWire(ctx.era),
    ...(ctx.principal !== undefined ? { principal: ctx.principal } : {}),
  };
}

/**
 * Sends `request` to the companion within the caller's deadline and parses its JSON answer; a failed invoke or an
 * answer that is not JSON is logged and reported as `failed`, for the caller to answer in its own terms.
 */
export async function askCompanion(
  invoke: InvokeCompanion,
  request: { uri: string },
  ctx: ResourceContext,
): Promise<{ answer: unknown } | 'failed'> {
  try {
    const call = ctx.signal ? { signal: ctx.signal } : {};
    return { answer: JSON.parse(await invoke(JSON.stringify(request), call)) as unknown };
  } catch (error) {
    ctx.log.error('companion invoke failed', { uri: request.uri, error: errorFields(error) });
    return 'failed';
  }
}
