import { Aws, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';

/**
 * What a traced function's role may do with X-Ray: send spans to X-Ray's OTLP endpoint (`PutSpans`) and have them
 * indexed as trace summaries (`PutSpansForIndexing`). Nothing else: it reads no traces and changes no setting.
 */
export const SPAN_EXPORT_ACTIONS = ['xray:PutSpans', 'xray:PutSpansForIndexing'] as const;

/** X-Ray's OTLP traces endpoint in the stack's region and partition. */
export const XRAY_TRACES_ENDPOINT = `https://xray.${Aws.REGION}.${Aws.URL_SUFFIX}/v1/traces`;

/**
 * The environment of a function whose tracing variable (`MCP_TRACING`, `BRIDGE_TRACING`) is on: OpenTelemetry spans
 * sent to X-Ray's OTLP endpoint, which the server's exporter signs with the function's role. No collector, layer or
 * extension: spans leave at the end of each invocation, within its deadline.
 */
export function spanExportEnvironment(variable: 'MCP_TRACING' | 'BRIDGE_TRACING'): Record<string, string> {
  return { [variable]: 'on', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: XRAY_TRACES_ENDPOINT };
}

/** Lets a traced function send its spans, the one grant on `*` it holds, with the reason cdk-nag is given. */
export function grantSpanExport(fn: lambda.IFunction & { readonly role?: iam.IRole }): void {
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...SPAN_EXPORT_ACTIONS], resources: ['*'] }));
  if (fn.role)
    Validations.of(fn.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Tracing grants xray:PutSpans and xray:PutSpansForIndexing (OpenTelemetry spans to X-Ray), and Lambda ' +
        "active tracing xray:PutTraceSegments and xray:PutTelemetryRecords (Lambda's own segments): X-Ray supports " +
        'no resource-level permissions for them, so the resource is "*".',
    });
}
