import { readFileSync } from 'node:fs';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { FUNCTION_ENTRIES, NODE_TARGET } from '../../../src/bundling.ts';
import { BundledFunction, LAMBDA_RUNTIME, type BundledFunctionProps } from '../../../src/bundled-function.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { expectLeastPrivilege, logGroupArnOf, only, roleOf } from '../../../src/testing/template.ts';

/** One BundledFunction in a fresh stack, and its template. */
function build(props: Partial<BundledFunctionProps> = {}) {
  const stack = newStack();
  const fn = new BundledFunction(stack, 'Fn', { entry: FUNCTION_ENTRIES.resources, ...props });
  const template = Template.fromStack(stack);
  const [id, resource] = only(template, 'AWS::Lambda::Function');
  return { stack, fn, template, id, resource };
}

const NODE_MAJOR = NODE_TARGET.replace('node', '');

describe('BundledFunction', () => {
  it('is a lambda.Function: the function API (functionName, grants, metrics) is the construct’s own', () => {
    const { fn, stack, id } = build();
    expect(fn).toBeInstanceOf(lambda.Function);
    expect(stack.resolve(fn.functionName)).toEqual({ Ref: id });
  });

  it('the runtime is the library’s Node.js 22 constant, the major that the esbuild target and .nvmrc name', () => {
    expect(LAMBDA_RUNTIME).toBe(lambda.Runtime.NODEJS_22_X);
    expect(LAMBDA_RUNTIME.name).toBe(`nodejs${NODE_MAJOR}.x`);
    expect(Number(NODE_MAJOR)).toBeGreaterThanOrEqual(22);
    expect(readFileSync(new URL('../../../../../.nvmrc', import.meta.url), 'utf8').trim()).toBe(NODE_MAJOR);
  });

  it('Runtime, Architectures and Handler: the ESM bundle on Node.js 22, arm64, export `handler`', () => {
    build().template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: LAMBDA_RUNTIME.name,
      Architectures: ['arm64'],
      Handler: 'index.handler',
    });
  });

  it('MemorySize and Timeout keep the Lambda defaults unless given, like any lambda.Function', () => {
    build().template.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: Match.absent(),
      Timeout: Match.absent(),
    });
  });

  it('other function options (memory, timeout, description, concurrency, architecture) reach the function', () => {
    const { template, fn } = build({
      memorySize: 2048,
      timeout: Duration.seconds(20),
      description: 'A tool function',
      reservedConcurrentExecutions: 5,
      architecture: lambda.Architecture.X86_64,
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: 2048,
      Timeout: 20,
      Description: 'A tool function',
      ReservedConcurrentExecutions: 5,
      Architectures: ['x86_64'],
    });
    expect(fn.timeout?.toSeconds()).toBe(20);
  });

  it('LoggingConfig sends JSON logs at INFO to the function’s own log group, kept one month and deleted with the stack', () => {
    const { template, resource, fn, stack } = build();
    expect(resource.Properties.LoggingConfig).toMatchObject({
      LogFormat: 'JSON',
      ApplicationLogLevel: 'INFO',
      SystemLogLevel: 'INFO',
    });
    const logGroupId: string = resource.Properties.LoggingConfig.LogGroup.Ref;
    expect(template.toJSON().Resources[logGroupId]).toMatchObject({
      Type: 'AWS::Logs::LogGroup',
      Properties: { RetentionInDays: 30 },
      DeletionPolicy: 'Delete',
    });
    expect(stack.resolve(fn.logGroup.logGroupName)).toEqual({ Ref: logGroupId });
  });

  it('Environment carries the Powertools service name (the construct id) and level, then the given variables', () => {
    const { resource } = build({ environment: { OFFLOAD_PREFIX: 'outputs/' } });
    expect(resource.Properties.Environment.Variables).toEqual({
      POWERTOOLS_SERVICE_NAME: 'Fn',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      OFFLOAD_PREFIX: 'outputs/',
    });
  });

  it('turns on source-mapped stack traces (NODE_OPTIONS) only at DEBUG, where their start-up cost buys something', () => {
    expect(build({ logLevel: 'DEBUG' }).resource.Properties.Environment.Variables).toMatchObject({
      NODE_OPTIONS: '--enable-source-maps',
    });
    expect(build({ logLevel: 'INFO' }).resource.Properties.Environment.Variables).not.toHaveProperty(
      'NODE_OPTIONS',
    );
  });

  it('serviceName, logLevel, logRetention and logRemovalPolicy reach the environment, the log controls and the log group', () => {
    const { template, resource } = build({
      serviceName: 'acme-tools',
      logLevel: 'WARN',
      logRetention: RetentionDays.ONE_WEEK,
      logRemovalPolicy: RemovalPolicy.RETAIN,
    });
    expect(resource.Properties.LoggingConfig).toMatchObject({ ApplicationLogLevel: 'WARN' });
    expect(resource.Properties.Environment.Variables).toMatchObject({
      POWERTOOLS_SERVICE_NAME: 'acme-tools',
      POWERTOOLS_LOG_LEVEL: 'WARN',
    });
    const [, logGroup] = only(template, 'AWS::Logs::LogGroup');
    expect(logGroup).toMatchObject({ Properties: { RetentionInDays: 7 }, DeletionPolicy: 'Retain' });
  });

  it('its own role may write to its own log group and nothing else, has no managed policy, and only Lambda assumes it', () => {
    const { template, resource } = build();
    const { role, statements } = roleOf(template, resource);
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: logGroupArnOf(resource),
      },
    ]);
    expectLeastPrivilege(role, statements);
  });

  it('grants to the function go to that role: it is the grant principal', () => {
    const { fn } = build();
    expect(fn.grantPrincipal).toBe(fn.role);
  });
});
