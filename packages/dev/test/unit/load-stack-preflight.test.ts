import { describe, expect, it } from 'vitest';
import { StackSide } from '../../src/load/stack/side.ts';
import { accessDenied, FUNCTION, HTTP_RESOURCES, outputs, REST_RESOURCES, stubClients } from './aws-stub.ts';

/**
 * The preflight of `npm run load -- --stack NAME` against stand-ins of the AWS clients: which function and API the
 * stack names, the stage's throttle and the function's concurrency, and the warnings the offered load earns. No
 * network, no account.
 */

const HTTP_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/live/mcp';
const REST_URL = 'https://rst789.execute-api.eu-west-1.amazonaws.com/prod/mcp';
const STACK = { name: 'McpServer', region: 'eu-west-1' };

const ACCOUNT = { AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 1000 } };

/** An HTTP API stack: its stage throttles at 50 req/s (bursts 100); the function has no reservation. */
const httpStack = (extra: Record<string, (input: any) => unknown> = {}) =>
  stubClients({
    'cloudFormation.DescribeStacksCommand': () => outputs(HTTP_URL),
    'cloudFormation.DescribeStackResourcesCommand': () => HTTP_RESOURCES,
    'apiGatewayV2.GetStageCommand': () => ({
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    }),
    'lambda.GetFunctionConcurrencyCommand': () => ({}),
    'lambda.GetAccountSettingsCommand': () => ACCOUNT,
    ...extra,
  });

/** A streaming REST API stack: its `*\/*` method settings throttle at 50 req/s; the function reserves 20. */
const restStack = () =>
  stubClients({
    'cloudFormation.DescribeStacksCommand': () => outputs(REST_URL),
    'cloudFormation.DescribeStackResourcesCommand': () => REST_RESOURCES,
    'apiGateway.GetStageCommand': () => ({
      methodSettings: { '*/*': { throttlingRateLimit: 50, throttlingBurstLimit: 100 } },
    }),
    'lambda.GetFunctionConcurrencyCommand': () => ({ ReservedConcurrentExecutions: 20 }),
    'lambda.GetAccountSettingsCommand': () => ({
      AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 980 },
    }),
  });

const open = (peakRate: number) => ({ model: 'open' as const, peakRate, unit: 'requests' as const });
const closed = (connections: number) => ({
  model: 'closed' as const,
  connections,
  unit: 'requests' as const,
});

describe('the stack preflight of an HTTP API', () => {
  it('reads the stage that serves the URL and the account pool, and warns when the peak exceeds the throttle', async () => {
    const { clients, calls } = httpStack();
    const side = await StackSide.preflight(STACK, HTTP_URL, open(200), 85, clients);
    expect(side.report).toEqual({
      stack: 'McpServer',
      region: 'eu-west-1',
      functionName: FUNCTION,
      // The stack's other HTTP API (the authorization bridge's) and its stage are not the endpoint's.
      api: { kind: 'http', id: 'abc123', stage: 'live' },
      limits: {
        throttle: { rateLimit: 50, burstLimit: 100, source: 'stage' },
        concurrency: { unreserved: 1000, account: 1000, available: 1000 },
      },
      expectedMs: 85,
      warnings: [
        'the offered peak of 200 req/s exceeds the stage throttle of 50 req/s (bursts 100): API Gateway answers ' +
          '429 above it (counted as non-2xx)',
      ],
      notes: [],
      problems: [],
    });
    expect(calls.find((c) => c.name === 'apiGatewayV2.GetStageCommand')!.input).toEqual({
      ApiId: 'abc123',
      StageName: 'live',
    });
    expect(calls.find((c) => c.name === 'lambda.GetFunctionConcurrencyCommand')!.input).toEqual({
      FunctionName: FUNCTION,
    });
  });

  it('warns of nothing when the load fits, and takes the account default when the stage sets no throttle', async () => {
    const { clients } = httpStack({ 'apiGatewayV2.GetStageCommand': () => ({ DefaultRouteSettings: {} }) });
    const side = await StackSide.preflight(STACK, HTTP_URL, open(40), 85, clients);
    expect(side.report.limits.throttle).toEqual({
      rateLimit: 10_000,
      burstLimit: 5_000,
      source: 'account default',
    });
    expect(side.report.warnings).toEqual([]);
  });

  it('warns when the unreserved pool cannot hold what rate × duration keeps running (Little’s law)', async () => {
    const { clients } = httpStack({
      'lambda.GetAccountSettingsCommand': () => ({
        AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 100 },
      }),
    });
    // 40 req/s within the throttle, each 3 s: 120 at once, above the 100 unreserved.
    const side = await StackSide.preflight(STACK, HTTP_URL, open(40), 3000, clients);
    expect(side.report.warnings).toEqual([
      "40 req/s at the preflight call's 3,000 ms keeps about 120 executions running at once (Little's law), more " +
        "than the account's unreserved 100: Lambda throttles above it",
    ]);
  });

  it('judges a closed run by its connections and the rate they make at the preflight call’s latency', async () => {
    const { clients } = httpStack({
      'lambda.GetAccountSettingsCommand': () => ({
        AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 5 },
      }),
    });
    const side = await StackSide.preflight(STACK, HTTP_URL, closed(10), 100, clients);
    expect(side.report.warnings).toEqual([
      "10 connections can keep 10 executions running at once, more than the account's unreserved 5: Lambda " +
        'throttles above it',
      "10 connections at the preflight call's 100 ms send about 100 req/s, above the stage throttle of 50 req/s: " +
        'API Gateway answers 429 above it',
    ]);
  });

  it('finds the API behind a custom domain through its API mapping', async () => {
    const { clients, calls } = httpStack({
      'cloudFormation.DescribeStacksCommand': () => outputs('https://mcp.example.com/mcp'),
      'apiGatewayV2.GetApiMappingsCommand': () => ({
        Items: [{ ApiId: 'abc123', Stage: 'live', ApiMappingKey: '' }],
      }),
    });
    const side = await StackSide.preflight(STACK, 'https://mcp.example.com/mcp', open(10), 85, clients);
    expect(side.report.api).toEqual({ kind: 'http', id: 'abc123', stage: 'live' });
    expect(calls.find((c) => c.name === 'apiGatewayV2.GetApiMappingsCommand')!.input).toEqual({
      DomainName: 'mcp.example.com',
    });
  });

  it('warns when the run loads another URL than the stack’s endpoint', async () => {
    const { clients } = httpStack();
    const side = await StackSide.preflight(
      STACK,
      'https://abc123.execute-api.eu-west-1.amazonaws.com/live/mcp/',
      open(1),
      85,
      clients,
    );
    expect(side.report.warnings).toEqual([]);
    const other = await StackSide.preflight(
      STACK,
      'http://127.0.0.1:3000/mcp',
      open(1),
      85,
      httpStack().clients,
    );
    expect(other.report.warnings[0]).toMatch(
      /^the stack's endpoint is https:\/\/abc123\..*, and the run loads http:\/\/127\.0\.0\.1:3000\/mcp/,
    );
  });
});

describe('the stack preflight of a REST API', () => {
  it('reads the `*/*` method settings of the stage and the reserved concurrency, and warns of both', async () => {
    const { clients, calls } = restStack();
    // 100 req/s at 300 ms each: about 30 at once, above the 20 reserved.
    const side = await StackSide.preflight(STACK, REST_URL, open(100), 300, clients);
    expect(side.report).toMatchObject({
      api: { kind: 'rest', id: 'rst789', stage: 'prod' },
      limits: {
        throttle: { rateLimit: 50, burstLimit: 100, source: 'stage' },
        concurrency: { reserved: 20, unreserved: 980, account: 1000, available: 20 },
      },
      warnings: [
        'the offered peak of 100 req/s exceeds the stage throttle of 50 req/s (bursts 100): API Gateway answers ' +
          '429 above it (counted as non-2xx)',
        "100 req/s at the preflight call's 300 ms keeps about 30 executions running at once (Little's law), more " +
          'than its reserved 20: Lambda throttles above it',
      ],
    });
    expect(calls.find((c) => c.name === 'apiGateway.GetStageCommand')!.input).toEqual({
      restApiId: 'rst789',
      stageName: 'prod',
    });
  });

  it('does not judge a scenario’s flow runs against the limits, and says so', async () => {
    const side = await StackSide.preflight(
      STACK,
      REST_URL,
      { model: 'open', peakRate: 5, unit: 'flow runs' },
      undefined,
      restStack().clients,
    );
    expect(side.report.warnings).toEqual([]);
    expect(side.report.notes).toEqual([
      'a flow run sends several requests, so the request rate is above the 5 flow runs/s offered: not judged ' +
        'against the limits',
    ]);
  });
});

describe('a read the credentials may not make', () => {
  it('names the permission it needs, and the preflight goes on without it', async () => {
    const { clients } = httpStack({ 'apiGatewayV2.GetStageCommand': () => accessDenied('apigateway:GET') });
    const side = await StackSide.preflight(STACK, HTTP_URL, open(200), 85, clients);
    expect(side.report.problems).toEqual([
      'the throttle not read: needs apigateway:GET (AccessDeniedException)',
    ]);
    expect(side.report.limits).toEqual({ concurrency: { unreserved: 1000, account: 1000, available: 1000 } });
    expect(side.report.warnings).toEqual([]);
  });

  it('leaves the whole section out when the stack cannot be read, saying why', async () => {
    const missing = () => {
      throw Object.assign(new Error('Stack with id Nope does not exist'), { name: 'ValidationError' });
    };
    const { clients } = stubClients({ 'cloudFormation.DescribeStacksCommand': missing });
    const side = await StackSide.preflight(
      { name: 'Nope', region: 'eu-west-1' },
      HTTP_URL,
      open(1),
      85,
      clients,
    );
    expect(side.report.problems).toEqual([
      'stack Nope not read: cloudformation:DescribeStacks: ValidationError: Stack with id Nope does not exist',
    ]);
    expect(side.report.functionName).toBeUndefined();
    const denied = stubClients({
      'cloudFormation.DescribeStacksCommand': () => accessDenied('cloudformation:DescribeStacks'),
    });
    const refused = await StackSide.preflight(STACK, HTTP_URL, open(1), 85, denied.clients);
    expect(refused.report.problems).toEqual([
      'stack McpServer not read: needs cloudformation:DescribeStacks (AccessDenied)',
    ]);
    // Nothing to read after the run either.
    expect(
      await refused.afterRun({ start: new Date(), end: new Date() }, 0, {
        now: Date.now,
        sleep: async () => {},
      }),
    ).toBe(refused.report);
    expect(refused.report.lambda).toBeUndefined();
  });
});
