import { Logger } from '@aws-lambda-powertools/logger';
import { createStoredReadHandler, loadConfig, s3Storage, storedOutputs } from '../../src/index.ts';

// Cold start: the companion only reads stored outputs (its role may only get objects under the prefix).
const config = loadConfig();
const logger = new Logger({ serviceName: `${config.serverName}-resources` });
const { bucket, prefix, s3Endpoint } = config.offload;
if (!bucket) throw new Error('Configuration: OFFLOAD_BUCKET must name the bucket of stored outputs');

const provider = storedOutputs({
  storage: s3Storage({ bucket, ...(s3Endpoint ? { endpoint: s3Endpoint } : {}) }),
  prefix,
});

/**
 * Lambda entry point, invoked directly by the MCP function (never through API Gateway): a versioned stored-read
 * request in, a versioned response out (`src/resources/remote-contract.ts`).
 */
export const handler = createStoredReadHandler(provider, logger);
