import { spawnSync } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AssetHashType,
  DockerImage,
  Validations,
  type ILocalBundling,
  type RemovalPolicy,
} from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { resolvesSources, SOURCE_CONDITION } from '@mcp-lambda/server/build';
import { Defaults } from '@mcp-lambda/server/limits';
import { NODE_TARGET, nodeOptionsFor, PROJECT_ROOT } from './bundling.ts';
import { DEFAULT_LOG_RETENTION, DEFAULT_REMOVAL_POLICY } from './defaults.ts';

/** Log levels shared by Lambda's advanced logging controls and the functions' `jsonLogger`, lowest first. */
export const FUNCTION_LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type FunctionLogLevel = (typeof FUNCTION_LOG_LEVELS)[number];

/** The Lambda runtime of every function: the Node.js major the bundles target (`NODE_TARGET`; a test checks both). */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_22_X;

/**
 * Function options this construct decides itself: the runtime and code (the bundle must match what is tested),
 * the role and log group (its own, least privilege), and the logging settings (derived from `logLevel`).
 */
type DecidedProps =
  | 'runtime'
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
 * Properties of a {@link BundledFunction}: every `lambda.FunctionOptions` option (memory, timeout, description,
 * environment, concurrency, …, with the Lambda defaults) but those it decides, plus the ones below.
 */
export interface BundledFunctionProps extends Omit<
  lambda.FunctionOptions,
  DecidedProps | 'architecture' | 'logRetention' | 'logRemovalPolicy'
> {
  /** Entry file, relative to the project root (see `FUNCTION_ENTRIES` in packages/cdk/src/bundling.ts). Required. */
  readonly entry: string;
  /**
   * Name of the function the entry file exports for Lambda to call.
   * @default 'handler'
   */
  readonly handler?: string;
  /**
   * Instruction set the function runs on; the bundle is plain JavaScript, so either works.
   * @default lambda.Architecture.ARM_64
   */
  readonly architecture?: lambda.Architecture;
  /**
   * Service name for log tooling (`POWERTOOLS_SERVICE_NAME`, the variable Powertools-style tools read); the functions
   * name their own `service` on each line.
   * @default - the construct id
   */
  readonly serviceName?: string;
  /**
   * Lowest level written to the logs: Lambda's log controls and `jsonLogger` (`POWERTOOLS_LOG_LEVEL`, the name kept
   * from Powertools) agree on it. DEBUG also sets NODE_OPTIONS=--enable-source-maps (`nodeOptionsFor`).
   * @default 'INFO' (`Defaults.logLevel` in packages/server/src/limits.ts)
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
 * The command that bundles one function with `esbuildOptions`, in a child process (`bundle-command.ts` says why):
 * this package's built module, or its source (run through tsx) inside this repository. The child resolves packages
 * as this process does, which a worker of the test runner may do by a flag rather than by NODE_OPTIONS.
 */
const OWN_EXTENSION = extname(fileURLToPath(import.meta.url));
const BUNDLE_COMMAND = fileURLToPath(new URL(`./bundle-command${OWN_EXTENSION}`, import.meta.url));
const BUNDLE_NODE_FLAGS = [
  ...(OWN_EXTENSION === '.ts' ? ['--import', 'tsx'] : []),
  ...(resolvesSources() ? [`--conditions=${SOURCE_CONDITION}`] : []),
];

/** Runs one step of local bundling in the project root; a failure stops the synth with the command's status. */
function runStep(command: string, args: readonly string[], what: string): void {
  const run = spawnSync(command, args, { cwd: PROJECT_ROOT, stdio: ['ignore', process.stderr, 'inherit'] });
  if (run.status !== 0) throw new Error(`${what} failed (${run.status ?? run.signal})`);
}

/**
 * Local bundling with esbuild, no Docker: the `beforeBundling` commands run in the project root, then one
 * `esbuild.build` with `esbuildOptions` (packages/cdk/src/bundling.ts) writes `index.mjs` and its chunks into the
 * asset, so the deployed files are byte-identical to a direct build with those settings (a test checks it).
 */
export function localBundling(entry: string, beforeBundling: readonly string[] = []): ILocalBundling {
  return {
    tryBundle(outputDir: string) {
      for (const command of beforeBundling)
        runStep('bash', ['-c', command], `beforeBundling command ${command}`);
      runStep(
        process.execPath,
        [...BUNDLE_NODE_FLAGS, BUNDLE_COMMAND, entry, outputDir],
        `bundling ${entry}`,
      );
      return true;
    },
  };
}

/**
 * A deployable Lambda function: its entry bundled locally by esbuild (no Docker) into minified ESM for Node.js 22,
 * split into the handler module and chunks it loads when a request needs them (which a `NodejsFunction`, limited
 * to one output file, cannot do), on arm64, writing structured JSON logs into its own log group with a retention,
 * and running as its own role that may write to that log group and nothing else until the owner grants more.
 *
 * The log group and the role are created beside the function (ids `<id>Logs` and `<id>Role`), because the
 * function needs them when it is constructed; `logGroup` and `role` return them.
 */
export class BundledFunction extends lambda.Function {
  constructor(scope: Construct, id: string, props: BundledFunctionProps) {
    const {
      entry,
      handler = 'handler',
      serviceName,
      logLevel = Defaults.logLevel,
      logRetention = DEFAULT_LOG_RETENTION,
      logRemovalPolicy = DEFAULT_REMOVAL_POLICY,
      beforeBundling,
      environment,
      architecture = lambda.Architecture.ARM_64,
      ...functionProps
    } = props;
    const nodeOptions = nodeOptionsFor(logLevel);
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
      handler: `index.${handler}`,
      // The bundle's output is hashed, as NodejsFunction does: the project root is never fingerprinted.
      code: lambda.Code.fromAsset(PROJECT_ROOT, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never pulled and never run: local bundling either succeeds or throws. The command still names what is
          // built, because the CDK caches staged assets by their options, where the local bundler (an object of
          // functions) counts for nothing: without it every function would share the first one's bundle.
          image: DockerImage.fromRegistry('dummy'),
          command: ['esbuild', entry, ...(beforeBundling ?? [])],
          local: localBundling(entry, beforeBundling),
        },
      }),
      role,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel[logLevel],
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      environment: {
        ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
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
        'NODE_TARGET in packages/cdk/src/bundling.ts).',
    });
  }
}
