import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  LogLevel,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
  type BundlingOptions,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  ESM_REQUIRE_BANNER,
  EXTERNAL_MODULES,
  LAMBDA_RUNTIME,
  NODE_OPTIONS,
  NODE_TARGET,
} from '../bundling.ts';

/** Log levels shared by Lambda's advanced logging controls and Powertools. */
export type FunctionLogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** Properties of a {@link BundledFunction}. */
export interface BundledFunctionProps {
  /** Entry file, relative to the repository root (see `FUNCTION_ENTRIES` in infra/bundling.ts). Required. */
  readonly entry: string;
  /** Human-readable description shown in the Lambda console. Default: none. */
  readonly description?: string;
  /** Memory in MB (CPU scales with it). Default 1024. */
  readonly memorySize?: number;
  /** Time limit of one invocation. Default 28 seconds. */
  readonly timeout?: Duration;
  /** Environment variables the function reads through `src/config.ts`. Default: none. */
  readonly environment?: Record<string, string>;
  /** Powertools service name on every log line. Default: the construct id. */
  readonly serviceName?: string;
  /** Lowest level written to the logs (Lambda log controls and Powertools agree on it). Default INFO. */
  readonly logLevel?: FunctionLogLevel;
  /** How long the function's log group keeps logs. Default one month. */
  readonly logRetention?: logs.RetentionDays;
  /** What happens to the log group when the stack is deleted. Default DESTROY. */
  readonly removalPolicy?: RemovalPolicy;
  /** Shell commands run in the project root before esbuild bundles the function (local bundling). Default: none. */
  readonly beforeBundling?: readonly string[];
}

/**
 * The esbuild settings of every function, from the constants in infra/bundling.ts: the deployed bundle is
 * byte-identical to a direct `esbuild.build(esbuildOptions(...))` (a test checks it).
 */
export function nodejsBundling(beforeBundling: readonly string[] = []): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    target: NODE_TARGET,
    minify: true,
    sourceMap: true,
    sourceMapMode: SourceMapMode.DEFAULT,
    sourcesContent: false,
    mainFields: ['module', 'main'],
    externalModules: [...EXTERNAL_MODULES],
    banner: ESM_REQUIRE_BANNER,
    esbuildArgs: { '--tree-shaking': 'true' },
    logLevel: LogLevel.WARNING,
    ...(beforeBundling.length
      ? {
          commandHooks: {
            beforeBundling: () => [...beforeBundling],
            beforeInstall: () => [],
            afterBundling: () => [],
          },
        }
      : {}),
  };
}

/**
 * One deployable Lambda function: bundled locally by esbuild (no Docker), arm64, Node.js 22, structured JSON logs
 * into its own log group with a retention, and a role that can write to that log group and nothing else until the
 * owner grants more.
 */
export class BundledFunction extends Construct {
  /** The Lambda function. */
  readonly function: NodejsFunction;
  /** The function's log group (retention and removal policy set here, not by a custom resource). */
  readonly logGroup: logs.LogGroup;
  /** The execution role; grants are added by the owner (see McpEndpoint). */
  readonly role: iam.Role;
  /** The invocation time limit, for alarms that compare duration with it. */
  readonly timeout: Duration;

  constructor(scope: Construct, id: string, props: BundledFunctionProps) {
    super(scope, id);
    const logLevel = props.logLevel ?? 'INFO';
    this.timeout = props.timeout ?? Duration.seconds(28);
    const runtime = new lambda.Runtime(LAMBDA_RUNTIME, lambda.RuntimeFamily.NODEJS, {
      supportsInlineCode: true,
    });

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.DESTROY,
    });

    // A role of our own instead of the AWS managed basic execution role, whose log permissions cover every group.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${this.node.path}`,
    });
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );

    this.function = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      runtime,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: this.timeout,
      ...(props.description ? { description: props.description } : {}),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel[logLevel],
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      bundling: nodejsBundling(props.beforeBundling),
      environment: {
        NODE_OPTIONS,
        POWERTOOLS_SERVICE_NAME: props.serviceName ?? id,
        POWERTOOLS_LOG_LEVEL: logLevel,
        ...props.environment,
      },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        `The runtime is pinned to ${LAMBDA_RUNTIME} because the bundle is built for ${NODE_TARGET} and the ` +
        'bundle test runs the deployed artifact on that Node.js major; move both together (infra/bundling.ts).',
    });
  }
}
