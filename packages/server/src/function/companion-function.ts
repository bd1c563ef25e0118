import { createStoredReadHandler } from '../outputs/companion/handler.ts';
import { storedOutputPages } from '../outputs/paging/pager.ts';
import { storedOutputs } from '../outputs/reader.ts';
import { s3RangeReader } from '../storage/s3-ranges.ts';
import { s3Storage } from '../storage/s3.ts';
import { tracedPayload } from '../telemetry/telemetry.ts';
import { startFunction } from './start.ts';

/**
 * The companion resources function's Lambda handler, built from the environment: the only reader of stored outputs
 * (its role may only get objects under the prefix), invoked directly by the MCP function, never through API Gateway.
 * A versioned request in, a versioned response out (`packages/server/src/outputs/companion/`): version 1 reads a
 * whole output for `resources/read`, version 2 a page of one for `read_output` (ranged reads, and searches streamed
 * here with bounded memory). With MCP_TRACING the reads join the trace of the MCP request that invoked it.
 */
export async function createCompanionFunction(
  options: { env?: Readonly<Record<string, string | undefined>> } = {},
) {
  const { config, logger, aws, telemetry } = await startFunction(options.env ?? process.env, '-resources');
  const { bucket, prefix, s3Endpoint } = config.offload;
  if (!bucket) throw new Error('Configuration: OFFLOAD_BUCKET must name the bucket of stored outputs');
  const s3 = { bucket, ...(s3Endpoint ? { endpoint: s3Endpoint } : {}), ...aws };
  const provider = storedOutputs({ storage: s3Storage(s3), prefix });
  const pages = storedOutputPages({ storage: s3RangeReader(s3), prefix });
  const handler = createStoredReadHandler(provider, logger, pages);
  // A request carries its caller's trace context (`trace`) whether or not this function traces: the contract never
  // sees it. With tracing, the read continues that trace, its spans sent as it ends.
  return (event: unknown, context?: Parameters<typeof handler>[1]) => {
    const { trace, payload } = tracedPayload(event);
    if (!telemetry) return handler(payload, context);
    const left = () => (context?.getRemainingTimeInMillis?.() ?? 10_000) - 250;
    return telemetry.continued(trace, 'companion read', () => handler(payload, context), left);
  };
}
