import {
  createStoredReadHandler,
  jsonLogger,
  loadConfig,
  loadLogLevel,
  storedOutputPages,
  storedOutputs,
} from '@mcp-lambda/server/lambda';
import { s3RangeReader, s3Storage } from '@mcp-lambda/server/aws';

// Cold start: the companion only reads stored outputs (its role may only get objects under the prefix).
const config = loadConfig();
const logger = jsonLogger({
  serviceName: `${config.serverName}-resources`,
  level: loadLogLevel(process.env),
});
const { bucket, prefix, s3Endpoint } = config.offload;
if (!bucket) throw new Error('Configuration: OFFLOAD_BUCKET must name the bucket of stored outputs');

// Tracing (MCP_TRACING): the reads join the trace of the MCP request that invoked the companion.
const tracing = config.tracing
  ? (await import('../mcp/tracing.ts')).xrayTracing(`${config.serverName}-resources`)
  : undefined;
const s3 = {
  bucket,
  ...(s3Endpoint ? { endpoint: s3Endpoint } : {}),
  ...(tracing ? { instrument: tracing.instrument } : {}),
};
const provider = storedOutputs({ storage: s3Storage(s3), prefix });
const pages = storedOutputPages({ storage: s3RangeReader(s3), prefix });

/**
 * Lambda entry point, invoked directly by the MCP function (never through API Gateway): a versioned request in, a
 * versioned response out (`packages/server/src/outputs/companion/`): version 1 reads a whole output for `resources/read`, version
 * 2 a page of one for `read_output` (ranged reads, and searches streamed here with bounded memory).
 */
export const handler = createStoredReadHandler(provider, logger, pages);
