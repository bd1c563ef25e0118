import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('has a documented default for everything', () => {
    expect(loadConfig({})).toEqual({
      serverName: 'mcp-lambda-template',
      serverVersion: '0.1.0',
      mcpPath: '/mcp',
      allowedOrigins: [],
      allowedHosts: undefined,
      maxBodyBytes: 1024 * 1024,
      toolTimeoutMs: 23_000,
      pageSize: 100,
      listCacheTtlMs: 300_000,
      requestStateSecret: undefined,
      offload: expect.objectContaining({
        bucket: undefined,
        prefix: 'outputs/',
        thresholdBytes: 32 * 1024,
        ttlDays: 7,
        resourcesFunctionName: undefined,
        s3Endpoint: undefined,
        readTool: true,
      }),
      tasks: {
        table: undefined,
        workerFunctionName: undefined,
        dynamodbEndpoint: undefined,
        ttlMs: 3_600_000,
        pollIntervalMs: 1_000,
      },
      auth: { mode: 'none' },
      toolMetrics: undefined,
      tracing: 'off',
      sessions: undefined,
      asking: { table: undefined, pollIntervalMs: 250, streamLogAfterMs: 10_000 },
    });
  });

  it('issues sessions with keys from MCP_SESSION_SECRET (newest first) or a Secrets Manager secret, never both', () => {
    const key = (c: string) => c.repeat(32);
    expect(loadConfig({ MCP_SESSION_SECRET: `${key('a')}, ${key('b')}` }).sessions).toEqual({
      secrets: [key('a'), key('b')],
      secretArn: undefined,
      ttlMs: 86_400_000,
    });
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:mcp-sessions-AbC123';
    expect(loadConfig({ MCP_SESSION_SECRET_ARN: arn, MCP_SESSION_TTL_MS: '3600000' }).sessions).toEqual({
      secrets: undefined,
      secretArn: arn,
      ttlMs: 3_600_000,
    });
    expect(() => loadConfig({ MCP_SESSION_SECRET: key('a'), MCP_SESSION_SECRET_ARN: arn })).toThrow(
      /not both/,
    );
    expect(() => loadConfig({ MCP_SESSION_SECRET_ARN: 'mcp-sessions' })).toThrow(/MCP_SESSION_SECRET_ARN/);
    // A short key is refused without repeating it.
    expect(() => loadConfig({ MCP_SESSION_SECRET: 'short-key' })).toThrow(/at least 32 characters/);
    expect(() => loadConfig({ MCP_SESSION_SECRET: 'short-key' })).not.toThrow(/short-key/);
    expect(() => loadConfig({ MCP_SESSION_TTL_MS: '10', MCP_SESSION_SECRET: key('a') })).toThrow(
      /MCP_SESSION_TTL_MS/,
    );
  });

  it('keeps the call state in MCP_CALL_STATE_TABLE when set, read every MCP_ASK_POLL_INTERVAL_MS', () => {
    expect(loadConfig({ MCP_CALL_STATE_TABLE: 'calls', MCP_ASK_POLL_INTERVAL_MS: '100' }).asking).toEqual({
      table: 'calls',
      pollIntervalMs: 100,
      streamLogAfterMs: 10_000,
    });
    expect(() => loadConfig({ MCP_ASK_POLL_INTERVAL_MS: '5' })).toThrow(/MCP_ASK_POLL_INTERVAL_MS/);
  });

  it('still finds the table under MCP_ASK_TABLE, the name an older construct set, and says it did', () => {
    expect(loadConfig({ MCP_ASK_TABLE: 'asks' }).asking).toMatchObject({
      table: 'asks',
      tableFromAskTable: true,
    });
    expect(loadConfig({ MCP_ASK_TABLE: 'asks', MCP_CALL_STATE_TABLE: 'calls' }).asking).toEqual({
      table: 'calls',
      pollIntervalMs: 250,
      streamLogAfterMs: 10_000,
    });
    expect(loadConfig({}).asking.table).toBeUndefined();
  });

  it('starts the log of an uncut resumable stream after MCP_STREAM_LOG_AFTER_MS (0: from its first event)', () => {
    expect(loadConfig({ MCP_STREAM_LOG_AFTER_MS: '0' }).asking.streamLogAfterMs).toBe(0);
    expect(loadConfig({ MCP_STREAM_LOG_AFTER_MS: '30000' }).asking.streamLogAfterMs).toBe(30_000);
    expect(() => loadConfig({ MCP_STREAM_LOG_AFTER_MS: '-1' })).toThrow(/MCP_STREAM_LOG_AFTER_MS/);
    expect(() => loadConfig({ MCP_STREAM_LOG_AFTER_MS: '900001' })).toThrow(/MCP_STREAM_LOG_AFTER_MS/);
  });

  it('reads the tracing mode from MCP_TRACING, off unless asked for', () => {
    expect(loadConfig({}).tracing).toBe('off');
    for (const mode of ['off', 'propagation', 'on', 'console'])
      expect(loadConfig({ MCP_TRACING: ` ${mode.toUpperCase()} ` }).tracing).toBe(mode);
    expect(loadConfig({ MCP_TRACING: 'true' }).tracing).toBe('on');
    expect(loadConfig({ MCP_TRACING: 'false' }).tracing).toBe('off');
    expect(() => loadConfig({ MCP_TRACING: 'active' })).toThrow(
      /MCP_TRACING must be one of off, propagation, on, console \(got "active"\)/,
    );
    // The X-Ray SDK path is gone: a deployment still asking for it is told what replaced it, not traced silently.
    expect(() => loadConfig({ MCP_TRACING: 'xray' })).toThrow(
      /MCP_TRACING=xray was removed .*MCP_TRACING=on and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=https:\/\/xray\.<region>\.amazonaws\.com\/v1\/traces/,
    );
  });

  it('turns per-tool metrics on with MCP_TOOL_METRICS, in a namespace that CloudWatch accepts', () => {
    expect(loadConfig({ MCP_TOOL_METRICS: 'on' }).toolMetrics).toEqual({
      namespace: 'MCP',
      logLevel: 'INFO',
    });
    expect(
      loadConfig({ MCP_TOOL_METRICS: 'on', MCP_METRICS_NAMESPACE: 'MCP/Acme-Tools' }).toolMetrics?.namespace,
    ).toBe('MCP/Acme-Tools');
    expect(loadConfig({ MCP_TOOL_METRICS: 'off', MCP_METRICS_NAMESPACE: 'X' }).toolMetrics).toBeUndefined();
    expect(() => loadConfig({ MCP_TOOL_METRICS: 'yes' })).toThrow(/MCP_TOOL_METRICS must be "on" or "off"/);
    for (const bad of ['AWS/Lambda', 'tools!', 'x'.repeat(256)])
      expect(() => loadConfig({ MCP_TOOL_METRICS: 'on', MCP_METRICS_NAMESPACE: bad })).toThrow(
        /MCP_METRICS_NAMESPACE has an invalid value/,
      );
  });

  it.each([
    [undefined, 'INFO'],
    ['DEBUG', 'INFO'],
    ['INFO', 'INFO'],
    ['WARN', 'WARN'],
    ['ERROR', 'ERROR'],
    ['FATAL', 'FATAL'],
  ])('metric lines carry the level Lambda keeps: AWS_LAMBDA_LOG_LEVEL %s gives %s', (lambdaLevel, level) => {
    const env = { MCP_TOOL_METRICS: 'on', ...(lambdaLevel ? { AWS_LAMBDA_LOG_LEVEL: lambdaLevel } : {}) };
    expect(loadConfig(env).toolMetrics?.logLevel).toBe(level);
  });

  it('reads the task settings, and refuses a worker without a shared table or a TTL shorter than a worker run', () => {
    expect(
      loadConfig({
        TASKS_TABLE: 'tasks',
        TASKS_WORKER_FUNCTION_NAME: 'worker',
        DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
        TASKS_TTL_MS: '86400000',
        TASKS_POLL_INTERVAL_MS: '2000',
      }).tasks,
    ).toEqual({
      table: 'tasks',
      workerFunctionName: 'worker',
      dynamodbEndpoint: 'http://127.0.0.1:8000',
      ttlMs: 86_400_000,
      pollIntervalMs: 2_000,
    });
    expect(() => loadConfig({ TASKS_WORKER_FUNCTION_NAME: 'worker' })).toThrow(/TASKS_TABLE/);
    expect(() => loadConfig({ TASKS_TTL_MS: '60000' })).toThrow(/TASKS_TTL_MS/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      MCP_SERVER_NAME: 'svc',
      MCP_SERVER_VERSION: '2.0.0',
      MCP_PATH: '/v1/mcp',
      MCP_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:*',
      MCP_ALLOWED_HOSTS: '127.0.0.1:*,localhost:*,[::1]:*',
      MCP_MAX_BODY_BYTES: '2048',
      MCP_TOOL_TIMEOUT_MS: '1000',
      MCP_PAGE_SIZE: '10',
      MCP_LIST_CACHE_TTL_MS: '0',
      OFFLOAD_BUCKET: 'bucket',
      OFFLOAD_PREFIX: 'a/b/',
      OFFLOAD_THRESHOLD_BYTES: '100',
      OFFLOAD_TTL_DAYS: '30',
      RESOURCES_FUNCTION_NAME: 'fn',
      S3_ENDPOINT: 'http://127.0.0.1:4569',
      OFFLOAD_READ_TOOL: 'off',
    });
    expect(config).toMatchObject({
      serverName: 'svc',
      serverVersion: '2.0.0',
      mcpPath: '/v1/mcp',
      allowedOrigins: ['https://app.example.com', 'http://localhost:*'],
      allowedHosts: ['127.0.0.1:*', 'localhost:*', '[::1]:*'],
      maxBodyBytes: 2048,
      toolTimeoutMs: 1000,
      pageSize: 10,
      listCacheTtlMs: 0,
      offload: {
        bucket: 'bucket',
        prefix: 'a/b/',
        thresholdBytes: 100,
        ttlDays: 30,
        resourcesFunctionName: 'fn',
        s3Endpoint: 'http://127.0.0.1:4569',
        readTool: false,
      },
    });
  });

  it('accepts "*" as an origin', () => {
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: '*' }).allowedOrigins).toEqual(['*']);
  });

  it.each([
    ['MCP_PATH', 'mcp'],
    ['MCP_PATH', '/mcp?x=1'],
    ['MCP_MAX_BODY_BYTES', '10'],
    ['MCP_MAX_BODY_BYTES', '99999999'],
    ['MCP_MAX_BODY_BYTES', '1e6'],
    ['MCP_MAX_BODY_BYTES', '0x1000'],
    ['MCP_MAX_BODY_BYTES', 'lots'],
    ['MCP_TOOL_TIMEOUT_MS', '99'],
    ['MCP_TOOL_TIMEOUT_MS', '1000.5'],
    ['MCP_PAGE_SIZE', '0'],
    ['MCP_PAGE_SIZE', '1001'],
    ['MCP_PAGE_SIZE', '-5'],
    ['MCP_LIST_CACHE_TTL_MS', '-1'],
    ['MCP_ALLOWED_ORIGINS', 'https://app.example.com/'],
    ['MCP_ALLOWED_ORIGINS', 'app.example.com'],
    ['MCP_ALLOWED_ORIGINS', 'https://app.example.com/path'],
    ['MCP_ALLOWED_HOSTS', 'http://localhost:3000'],
    ['MCP_ALLOWED_HOSTS', 'localhost/x'],
    ['MCP_ALLOWED_HOSTS', ''],
    ['MCP_ALLOWED_HOSTS', ' , '],
    ['OFFLOAD_PREFIX', 'outputs'],
    ['OFFLOAD_PREFIX', '/outputs/'],
    ['OFFLOAD_PREFIX', '../x/'],
    ['OFFLOAD_THRESHOLD_BYTES', '0'],
    ['OFFLOAD_TTL_DAYS', '0'],
    ['OFFLOAD_TTL_DAYS', '366'],
    ['OFFLOAD_READ_TOOL', 'no'],
    ['OFFLOAD_READ_TOOL', '0'],
  ])('refuses %s=%j and names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Configuration: ${name} `));
  });

  it('switches read_output with on/off (or true/false), any case', () => {
    expect(loadConfig({ OFFLOAD_READ_TOOL: 'OFF' }).offload.readTool).toBe(false);
    expect(loadConfig({ OFFLOAD_READ_TOOL: 'true' }).offload.readTool).toBe(true);
    expect(loadConfig({ OFFLOAD_READ_TOOL: '' }).offload.readTool).toBe(true);
  });

  it('treats an empty number as unset', () => {
    expect(loadConfig({ MCP_PAGE_SIZE: '' }).pageSize).toBe(100);
  });

  it('reads a request-state secret of at least 32 characters and refuses a shorter one by name', () => {
    expect(loadConfig({ MCP_REQUEST_STATE_SECRET: 'k'.repeat(32) }).requestStateSecret).toBe('k'.repeat(32));
    expect(() => loadConfig({ MCP_REQUEST_STATE_SECRET: 'short' })).toThrow(/MCP_REQUEST_STATE_SECRET/);
  });
});
