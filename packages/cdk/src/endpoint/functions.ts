import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { Defaults } from '@mcp-lambda/server/limits';
import { BundledFunction } from '../bundled-function.ts';
import { FUNCTION_ENTRIES, GENERATE_COMMANDS } from '../bundling.ts';
import { OutputBucket } from '../output-bucket.ts';
import { grantSpanExport, spanExportEnvironment } from '../span-export.ts';
import { TaskWorker } from '../task-worker.ts';
import type { McpEndpointProps } from './props.ts';
import { checkMemory, type EndpointSettings } from './settings.ts';

/** The endpoint's functions and the bucket they share. */
export interface EndpointFunctions {
  /** The bucket of stored outputs. */
  readonly outputs: OutputBucket;
  /** The companion function that reads stored outputs for `resources/read`. */
  readonly resourcesFunction: BundledFunction;
  /** The task table and the worker function that runs tasks. */
  readonly tasks: TaskWorker;
  /** The MCP function. */
  readonly mcpFunction: BundledFunction;
  /** The MCP function's environment as created (authorization adds its MCP_AUTH_* settings later). */
  readonly mcpEnvironment: Readonly<Record<string, string>>;
}

/** What every function of the endpoint is given alike. */
interface Shared {
  readonly props: McpEndpointProps;
  readonly settings: EndpointSettings;
  readonly outputs: OutputBucket;
  readonly offloadEnvironment: Record<string, string>;
  readonly tracing?: lambda.Tracing;
}

const functionLogs = ({ logLevel, logRetention, removalPolicy }: McpEndpointProps) => ({
  logLevel,
  logRetention,
  logRemovalPolicy: removalPolicy,
});

/** The companion: reads stored outputs, may read nothing else. */
function resourcesFunctionOf(scope: Construct, shared: Shared): BundledFunction {
  const { props, settings, tracing } = shared;
  const fn = new BundledFunction(scope, 'ResourcesFunction', {
    ...functionLogs(props),
    entry: props.resourcesEntry ?? FUNCTION_ENTRIES.resources,
    description: 'Companion of the MCP function: reads stored tool outputs for resources/read',
    memorySize: checkMemory('resourcesMemorySize', props.resourcesMemorySize ?? Defaults.resourcesMemoryMb),
    timeout: settings.resourcesTimeout,
    serviceName: `${settings.serverName}-resources`,
    ...(tracing ? { tracing } : {}),
    environment: {
      MCP_SERVER_NAME: settings.serverName,
      ...shared.offloadEnvironment,
      ...(props.tracing ? spanExportEnvironment('MCP_TRACING') : {}),
    },
  });
  shared.outputs.grantReadOutputs(fn);
  return fn;
}

function taskWorkerOf(scope: Construct, shared: Shared): TaskWorker {
  const { props, settings, tracing } = shared;
  return new TaskWorker(scope, 'Tasks', {
    outputs: shared.outputs,
    environment: { ...props.mcpEnvironment, ...settings.environment },
    entry: props.workerEntry,
    memorySize: props.workerMemorySize,
    timeout: props.workerTimeout,
    // The worker bundles the MCP function's tools, their generated validators and the views they link.
    beforeBundling:
      props.mcpBeforeBundling ?? (props.workerEntry === undefined ? [...GENERATE_COMMANDS] : []),
    logLevel: props.logLevel,
    logRetention: props.logRetention,
    removalPolicy: props.removalPolicy,
    alarmActions: props.alarmActions,
    ...(tracing ? { tracing } : {}),
  });
}

function mcpFunctionOf(
  scope: Construct,
  shared: Shared,
  environment: Record<string, string>,
): BundledFunction {
  const { props, settings, tracing } = shared;
  const streaming = settings.streaming;
  return new BundledFunction(scope, 'McpFunction', {
    ...functionLogs(props),
    entry: props.mcpEntry ?? (streaming ? FUNCTION_ENTRIES.mcpStreaming : FUNCTION_ENTRIES.mcp),
    beforeBundling: props.mcpBeforeBundling ?? (props.mcpEntry === undefined ? [...GENERATE_COMMANDS] : []),
    description: streaming
      ? 'Stateless MCP server (Streamable HTTP, streamed responses)'
      : 'Stateless MCP server (Streamable HTTP, JSON responses)',
    handler: props.mcpHandler ?? (streaming ? 'streamingHandler' : 'handler'),
    memorySize: checkMemory('mcpMemorySize', props.mcpMemorySize ?? Defaults.mcpMemoryMb),
    timeout: settings.mcpTimeout,
    serviceName: settings.serverName,
    ...(tracing ? { tracing } : {}),
    environment,
  });
}

/** What the MCP function may do: store outputs, keep and start tasks, invoke exactly the companion. */
function grantMcpFunction(made: EndpointFunctions): void {
  made.outputs.grantStoreOutputs(made.mcpFunction);
  made.tasks.grantRecords(made.mcpFunction);
  made.tasks.grantStart(made.mcpFunction);
  // Exactly the function's ARN: `grantInvoke` would add its versions and aliases (`<arn>:*`) as well.
  iam.Grant.addToPrincipal({
    grantee: made.mcpFunction,
    actions: ['lambda:InvokeFunction'],
    resourceArns: [made.resourcesFunction.functionArn],
  });
}

/**
 * The output bucket, the companion resources function, the task table and worker, and the MCP function, each
 * allowed exactly what it does.
 */
export function endpointFunctions(
  scope: Construct,
  props: McpEndpointProps,
  settings: EndpointSettings,
): EndpointFunctions {
  const outputs = new OutputBucket(scope, 'Outputs', {
    prefix: settings.config.offload.prefix,
    ttlDays: settings.config.offload.ttlDays,
    removalPolicy: props.removalPolicy,
  });
  const offloadEnvironment = {
    OFFLOAD_BUCKET: outputs.bucketName,
    OFFLOAD_PREFIX: outputs.prefix,
    OFFLOAD_TTL_DAYS: String(outputs.ttlDays),
  };
  const tracing = props.tracing ? lambda.Tracing.ACTIVE : undefined;
  const shared: Shared = { props, settings, outputs, offloadEnvironment, ...(tracing ? { tracing } : {}) };
  const resourcesFunction = resourcesFunctionOf(scope, shared);
  const tasks = taskWorkerOf(scope, shared);
  const mcpEnvironment = {
    ...props.mcpEnvironment,
    ...settings.environment,
    ...settings.metricsEnvironment,
    MCP_PATH: settings.config.mcpPath,
    ...offloadEnvironment,
    RESOURCES_FUNCTION_NAME: resourcesFunction.functionName,
    TASKS_TABLE: tasks.table.tableName,
    TASKS_WORKER_FUNCTION_NAME: tasks.workerFunction.functionName,
  };
  const mcpFunction = mcpFunctionOf(scope, shared, mcpEnvironment);
  if (tracing) for (const fn of [mcpFunction, resourcesFunction, tasks.workerFunction]) grantSpanExport(fn);
  const made = { outputs, resourcesFunction, tasks, mcpFunction, mcpEnvironment };
  grantMcpFunction(made);
  return made;
}
