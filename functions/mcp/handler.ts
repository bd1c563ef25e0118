import {
  createLambdaHandler,
  createMcpServer,
  createOffloader,
  jsonLogger,
  loadConfig,
  loadLogLevel,
  loadOAuthAuthenticator,
  observeAll,
  remoteStoredOutputs,
  storedOutputs,
} from '@mcp-lambda/server/lambda';
import {
  dynamoRendezvous,
  dynamoTaskStore,
  lambdaInvoker,
  lambdaTaskLauncher,
  s3Storage,
  secretsManagerKeys,
} from '@mcp-lambda/server/aws';
import { memoryRendezvous, memoryTaskStore } from '@mcp-lambda/server/backend';
import { serverResources } from './resources.ts';
import { tools } from './tools/index.ts';
import { approvalView } from './views.ts';
import { validators } from './validators.generated.ts';

// Cold start: read configuration and build the server once per container.
const config = loadConfig();
export const logger = jsonLogger({ serviceName: config.serverName, level: loadLogLevel(process.env) });

// Tracing (MCP_TRACING, off by default): X-Ray subsegments for each request and each AWS SDK call. Its module (a
// chunk with Powertools Tracer and the X-Ray SDK) is imported only when it is on.
const tracing = config.tracing ? (await import('./tracing.ts')).xrayTracing(config.serverName) : undefined;
const instrument = tracing ? { instrument: tracing.instrument } : {};

// Large outputs: written to the bucket by this function (put, and delete after a failed store); read back through
// the companion resources function when one is deployed (then only it may read the bucket), else in-process. Pages
// for read_output come only from the companion (npm start runs one locally), so this bundle carries no page-reading
// code. The S3 and Lambda SDKs load lazily.
const { offload } = config;
const storage = offload.bucket
  ? s3Storage({
      bucket: offload.bucket,
      ...(offload.s3Endpoint ? { endpoint: offload.s3Endpoint } : {}),
      ...instrument,
    })
  : undefined;
const offloader = storage
  ? createOffloader({
      storage,
      prefix: offload.prefix,
      thresholdBytes: offload.thresholdBytes,
      ttlDays: offload.ttlDays,
    })
  : undefined;
const companion =
  storage && offload.resourcesFunctionName
    ? remoteStoredOutputs({
        prefix: offload.prefix,
        invoke: lambdaInvoker({ functionName: offload.resourcesFunctionName, ...instrument }),
      })
    : undefined;
const storedOutputReader = companion ?? (storage && storedOutputs({ storage, prefix: offload.prefix }));

// Tasks: records in DynamoDB and runs in the worker function when deployed (TASKS_TABLE, TASKS_WORKER_FUNCTION_NAME);
// locally, records in memory and runs in this process, with the same tools and offload policy.
const { tasks: taskConfig } = config;
const taskTable = taskConfig.table && {
  table: taskConfig.table,
  ...(taskConfig.dynamodbEndpoint ? { endpoint: taskConfig.dynamodbEndpoint } : {}),
  ...instrument,
};
const tasks = {
  store: taskTable ? dynamoTaskStore(taskTable) : memoryTaskStore(),
  ...(taskConfig.workerFunctionName
    ? { launch: lambdaTaskLauncher({ functionName: taskConfig.workerFunctionName, ...instrument }) }
    : {}),
  ttlMs: taskConfig.ttlMs,
  pollIntervalMs: taskConfig.pollIntervalMs,
  log: logger,
};

// Authorization: with MCP_AUTH_MODE=oauth every request needs an access token for this resource; the issuer's
// keys are fetched on the first token and cached for the container's life (docs/authorization.md). The
// verification code loads only in that mode.
const { auth } = config;
const authenticator =
  auth.mode === 'oauth'
    ? (await loadOAuthAuthenticator())({
        issuer: auth.issuer,
        resource: auth.resource,
        audiences: auth.audiences,
        requiredScopes: auth.requiredScopes,
        scopesSupported: tools.flatMap((t) => t.scopes ?? []),
        resourceName: config.serverName,
        ...(auth.jwksUrl ? { jwksUri: auth.jwksUrl } : {}),
        ...(auth.algorithms ? { algorithms: auth.algorithms } : {}),
        maxTokenLifetimeSeconds: auth.maxTokenLifetimeSeconds,
        ...(auth.metadataUrl ? { metadataUrl: auth.metadataUrl } : {}),
      })
    : undefined;

// Asking the client mid-call (docs/asking.md). Handshake-era sessions carry what each client declared at initialize,
// sealed with MCP_SESSION_SECRET (npm start generates one) or the Secrets Manager secret the stack creates, read on
// the first request that needs it. The same keys seal 2026-07-28 requestState (each through a derivation of its own),
// so any instance opens the retry of an inputRequired exchange; MCP_REQUEST_STATE_SECRET overrides them. Questions
// wait for their answers in the rendezvous table the stack creates with the streaming API (MCP_ASK_TABLE), else in
// this process's memory (one instance: npm start).
const { sessions: sessionConfig, asking } = config;
const sessions = sessionConfig && {
  keys: sessionConfig.secrets ?? secretsManagerKeys(sessionConfig.secretArn!, instrument),
  ttlMs: sessionConfig.ttlMs,
};
const rendezvous = asking.table
  ? dynamoRendezvous({
      table: asking.table,
      ...(taskConfig.dynamodbEndpoint ? { endpoint: taskConfig.dynamodbEndpoint } : {}),
      ...instrument,
    })
  : memoryRendezvous();

// Per-tool metrics (MCP_TOOL_METRICS, on in the deployed stack): one embedded-metric-format line per tool call,
// through a module (a chunk with Powertools Metrics) imported at cold start only when they are on.
const observer = observeAll(
  config.toolMetrics
    ? (await import('./tool-metrics.ts')).toolMetricsObserver(config.toolMetrics, config.serverName, logger)
    : undefined,
  tracing?.observer,
);

/** The MCP server of this function; `streaming.ts` serves the same one with response streaming. */
export const server = createMcpServer({
  info: { name: config.serverName, version: config.serverVersion, title: 'MCP on AWS Lambda' },
  instructions:
    'Large tool outputs arrive as a notice naming their mcp-output:// uri, and its resource_link: page through ' +
    'or search them with the read_output tool (or resources/read) when you need the content.',
  tools,
  validators,
  resources: storedOutputReader ? [serverResources, storedOutputReader] : [serverResources],
  ...(offloader ? { offloader } : {}),
  ...(companion ? { outputPages: companion } : {}),
  readOutputTool: offload.readTool,
  // delete_output, gated: the person approves in the approval view (or by elicitation) before anything is deleted.
  deleteOutputTool: { view: approvalView },
  // Used approvals are recorded in the task table when deployed, so each runs once across instances.
  approvals: taskTable ? { dynamodb: taskTable } : {},
  tasks,
  ...(authenticator ? { auth: authenticator } : {}),
  ...(observer ? { observer } : {}),
  pageSize: config.pageSize,
  toolTimeoutMs: config.toolTimeoutMs,
  listCache: { ttlMs: config.listCacheTtlMs, cacheScope: 'public' },
  ...(config.requestStateSecret ? { requestStateSecret: config.requestStateSecret } : {}),
  ...(sessions ? { sessions } : {}),
  rendezvous,
  askPollIntervalMs: asking.pollIntervalMs,
  http: {
    path: config.mcpPath,
    allowedOrigins: config.allowedOrigins,
    maxBodyBytes: config.maxBodyBytes,
    streamLogAfterMs: asking.streamLogAfterMs,
    ...(config.allowedHosts ? { allowedHosts: config.allowedHosts } : {}),
  },
});

/** The server's transport, inside a trace subsegment per request when tracing is on; both entry points serve it. */
export const handle = tracing ? tracing.traced(server.handle) : server.handle;

/** Lambda entry point: API Gateway HTTP API (payload format 2.0) → MCP, one complete response per request. */
export const handler = createLambdaHandler(handle, logger);
