import { Validations, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  LogLevel,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
  type BundlingOptions,
  type NodejsFunctionProps,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { Defaults } from '../../src/limits.ts';
import { ESM_REQUIRE_BANNER, EXTERNAL_MODULES, NODE_OPTIONS, NODE_TARGET } from '../bundling.ts';
import { DEFAULT_LOG_RETENTION, DEFAULT_REMOVAL_POLICY } from '../defaults.ts';

/** Log levels shared by Lambda's advanced logging controls and Powertools, lowest first. */
export const FUNCTION_LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type FunctionLogLevel = (typeof FUNCTION_LOG_LEVELS)[number];

/** The Lambda runtime of every function: the Node.js major the bundles target (`NODE_TARGET`; a test checks both). */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_22_X;

/**
 * `NodejsFunctionProps` this construct decides itself: the runtime and bundling (the bundle must match what is
 * tested), the role and log group (its own, least privilege), and the logging settings (derived from `logLevel`).
 */
type DecidedProps =
  | 'runtime'
  | 'code'
  | 'bundling'
  | 'role'
  | 'logGroup'
  | 'loggingFormat'
  | 'logFormat'
  | 'applicationLogLevel'
  | 'applicationLogLevelV2'
  | 'systemLogLevel'
  | 'systemLogLevelV2'
  | 'logRetentionRole'
  | 'logRetentionRetryOptions';

/**
 * Properties of a {@link BundledFunction}: every `NodejsFunctionProps` option (memory, timeout, description,
 * environment, concurrency, …, with the Lambda defaults) but those it decides, plus the ones below.
 */
export interface BundledFunctionProps extends Omit<
  NodejsFunctionProps,
  DecidedProps | 'entry' | 'architecture' | 'logRetention' | 'logRemovalPolicy'
> {
  /** Entry file, relative to the project root (see `FUNCTION_ENTRIES` in infra/bundling.ts). Required. */
  readonly entry: string;
  /**
   * Instruction set the function runs on; the bundle is plain JavaScript, so either works.
   * @default lambda.Architecture.ARM_64
   */
  readonly architecture?: lambda.Architecture;
  /**
   * Powertools service name on every log line (`POWERTOOLS_SERVICE_NAME`).
   * @default - the construct id
   */
  readonly serviceName?: string;
  /**
   * Lowest level written to the logs: Lambda's log controls and Powertools (`POWERTOOLS_LOG_LEVEL`) agree on it.
   * @default 'INFO' (`Defaults.logLevel` in src/limits.ts)
   */
  readonly logLevel?: FunctionLogLevel;
  /**
   * How long the function's own log group keeps logs.
   * @default logs.RetentionDays.ONE_MONTH (`Defaults.logRetentionDays`)
   */
  readonly logRetention?: logs.RetentionDays;
  /**
   * What happens to the function's own log group when the stack is deleted.
   * @default RemovalPolicy.DESTROY (`Defaults.removalPolicy`)
   */
  readonly logRemovalPolicy?: RemovalPolicy;
  /**
   * Shell commands run in the project root before esbuild bundles the function (local bundling).
   * @default - none
   */
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
 * A deployable Lambda function: a `NodejsFunction` bundled locally by esbuild (no Docker) as a minified ESM file
 * for Node.js 22, on arm64, writing structured JSON logs into its own log group with a retention, and running as
 * its own role that may write to that log group and nothing else until the owner grants more.
 *
 * The log group and the role are created beside the function (ids `<id>Logs` and `<id>Role`), because the
 * function needs them when it is constructed; `logGroup` and `role` return them.
 */
export class BundledFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: BundledFunctionProps) {
    const {
      serviceName,
      logLevel = Defaults.logLevel,
      logRetention = DEFAULT_LOG_RETENTION,
      logRemovalPolicy = DEFAULT_REMOVAL_POLICY,
      beforeBundling,
      environment,
      architecture = lambda.Architecture.ARM_64,
      ...functionProps
    } = props;
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: logRetention,
      removalPolicy: logRemovalPolicy,
    });
    // A role of our own instead of the AWS managed basic execution role, whose log permissions cover every group.
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${scope.node.path}/${id}`,
    });
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );

    super(scope, id, {
      ...functionProps,
      runtime: LAMBDA_RUNTIME,
      architecture,
      role,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel[logLevel],
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      bundling: nodejsBundling(beforeBundling),
      environment: {
        NODE_OPTIONS,
        POWERTOOLS_SERVICE_NAME: serviceName ?? id,
        POWERTOOLS_LOG_LEVEL: logLevel,
        ...environment,
      },
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        `The runtime is pinned to ${LAMBDA_RUNTIME.name} because the bundle is built for ${NODE_TARGET} and the ` +
        'bundle test runs the deployed artifact on that Node.js major; move both together (LAMBDA_RUNTIME here, ' +
        'NODE_TARGET in infra/bundling.ts).',
    });
  }
}
