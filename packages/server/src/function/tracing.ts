import { Tracer } from '@aws-lambda-powertools/tracer';
import xraySdk from 'aws-xray-sdk-core';
import type { Transport } from '../http/transport.ts';
import type { HttpRequest, StreamingInvocationContext } from '../http/types.ts';
import type { InstrumentClient } from '../instrument.ts';
import type { ToolCallObserver } from '../tools/observer.ts';

/** X-Ray tracing of a function (MCP_TRACING, BRIDGE_TRACING): what its wiring takes in. */
export interface McpTracing {
  /** Captures an AWS SDK client: a subsegment per call (S3 writes, the companion and worker invokes, DynamoDB). */
  instrument: InstrumentClient;
  /** Annotates the request's subsegment with the tool and its outcome (searchable: `annotation.tool = "…"`). */
  observer: ToolCallObserver;
  /** The transport inside a `## mcp request` subsegment, so one trace holds the request and its SDK calls. */
  traced(handle: Transport): Transport;
}

const bucketOnly = { request_descriptors: { Bucket: { rename_to: 'bucket_name' } } };
const tableOnly = { request_parameters: ['TableName'], response_parameters: ['ConsumedCapacity'] };

/**
 * The request and response fields the X-Ray SDK copies into an AWS call's subsegment (its "AWS whitelist", which this
 * replaces). The SDK's default records S3 object keys, and a stored output's key is its `mcp-output://` URI: with
 * auth "none" the URI is the capability to read the output, so no subsegment may carry it. S3 calls keep the bucket,
 * Lambda invokes the function and invocation type (never the payload), DynamoDB calls the table (never item keys).
 * Operations not listed record no parameters at all.
 */
export const TRACED_AWS_PARAMETERS = {
  services: {
    s3: {
      operations: Object.fromEntries(
        [
          'getObject',
          'headObject',
          'putObject',
          'deleteObject',
          'createMultipartUpload',
          'uploadPart',
          'completeMultipartUpload',
          'abortMultipartUpload',
        ].map((operation) => [operation, bucketOnly]),
      ),
    },
    lambda: {
      operations: {
        invoke: {
          request_parameters: ['FunctionName', 'InvocationType', 'Qualifier'],
          response_parameters: ['FunctionError', 'StatusCode'],
        },
      },
    },
    dynamodb: {
      operations: Object.fromEntries(
        ['getItem', 'putItem', 'updateItem', 'deleteItem', 'query'].map((operation) => [
          operation,
          tableOnly,
        ]),
      ),
    },
  },
};

/**
 * Tracing through Powertools Tracer. Lambda's active tracing makes the trace and the function's segment; this adds
 * one subsegment per request, annotated, with a subsegment per SDK call under it, and the SDK passes the trace
 * header on, so the companion's and the worker's own segments join the same trace. Subsegments go to the X-Ray
 * daemon over local UDP: no API call on the request path. The functions import this module (and with it
 * Powertools Tracer and the X-Ray SDK) only when tracing is on (`tracing-loader.ts`), so it is a chunk of its own that
 * a function without tracing never loads; outside Lambda (tests, `npm start`) the tracer stays disabled.
 */
export function xrayTracing(serviceName: string): McpTracing {
  // Only the SDK clients are captured: patching http/https globally as well would trace each SDK call twice.
  const tracer = new Tracer({ serviceName, captureHTTPsRequests: false });
  xraySdk.setAWSWhitelist(TRACED_AWS_PARAMETERS);
  return {
    instrument: (client) => tracer.captureAWSv3Client(client),
    observer: {
      toolCall(record) {
        tracer.putAnnotation('tool', record.tool);
        tracer.putAnnotation('outcome', record.outcome);
      },
    },
    traced(handle) {
      if (!tracer.isTracingEnabled()) return handle;
      const traced = async (req: HttpRequest, ctx: StreamingInvocationContext) => {
        const parent = tracer.getSegment();
        if (!parent) return handle(req, ctx);
        const segment = parent.addNewSubsegment('## mcp request');
        tracer.setSegment(segment);
        tracer.annotateColdStart();
        tracer.addServiceNameAnnotation();
        const end = () => {
          segment.close();
          tracer.setSegment(parent);
        };
        try {
          const response = await handle(req, ctx);
          if (typeof response.body === 'string') {
            end();
            return response;
          }
          // A streamed answer is still being produced (the tool runs on): the subsegment ends with the stream.
          const body = response.body;
          return {
            ...response,
            body: (async function* () {
              try {
                yield* body;
              } finally {
                end();
              }
            })(),
          };
        } catch (error) {
          segment.addError(error as Error);
          end();
          throw error;
        }
      };
      return traced as Transport;
    },
  };
}
