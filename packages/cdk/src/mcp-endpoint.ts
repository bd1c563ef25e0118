import { Construct } from 'constructs';
import type { ApiDomain } from './api-domain.ts';
import type { ApiFirewall } from './api-firewall.ts';
import type { CallStateTable } from './call-state-table.ts';
import type { BundledFunction } from './bundled-function.ts';
import { checkedFirewall, domainUrlOf, endpointApi, wellKnownPathsOf } from './endpoint/api.ts';
import { endpointAsking } from './endpoint/asking.ts';
import type { McpEndpointAuth } from './endpoint/auth-props.ts';
import { authorize, chosenOAuth } from './endpoint/authorization.ts';
import { endpointFunctions } from './endpoint/functions.ts';
import type { McpApiKind, McpEndpointProps } from './endpoint/props.ts';
import { endpointSettings, toolNamesOf, type EndpointSettings } from './endpoint/settings.ts';
import type { McpHttpApi } from './mcp-http-api.ts';
import { McpMonitoring } from './mcp-monitoring.ts';
import type { ApiStageMetrics } from './monitoring-widgets.ts';
import type { McpRestApi } from './mcp-rest-api.ts';
import type { OutputBucket } from './output-bucket.ts';
import type { SessionSecret } from './session-secret.ts';
import type { TaskWorker } from './task-worker.ts';

/**
 * A hosted, stateless MCP server: the output bucket, the companion resources function, the task table and worker,
 * the MCP function, the API in front of it (an HTTP API, or a streaming REST API) and the monitoring around them.
 * Embed it in any CDK app; `McpStack` is one such app.
 *
 * Each concern is built by its own module under `endpoint/` (settings, functions, asking, API, authorization), all in
 * this construct's scope, so every resource keeps the construct path, and the logical id, it has always had.
 */
export class McpEndpoint extends Construct {
  /** The MCP endpoint URL clients connect to. */
  readonly url: string;
  /** The bucket of stored outputs. */
  readonly outputs: OutputBucket;
  /** The MCP function (a `BundledFunction`): `endpoint.mcpFunction.functionName`, `.logGroup`, `.role`, … */
  readonly mcpFunction: BundledFunction;
  /** The companion function that reads stored outputs for `resources/read`. */
  readonly resourcesFunction: BundledFunction;
  /** The task table and the worker function that runs tasks (the tasks extension). */
  readonly tasks: TaskWorker;
  /** The API kind in front of the MCP function. */
  readonly api: McpApiKind;
  /** The HTTP API in front of the MCP function, with `api: 'http'`. */
  readonly httpApi?: McpHttpApi;
  /** The streaming REST API in front of the MCP function, with `api: 'rest-streaming'`. */
  readonly restApi?: McpRestApi;
  /** The custom domain serving the endpoint, when one is configured. */
  readonly domain?: ApiDomain;
  /** The web application firewall in front of the REST API, with `waf`. */
  readonly firewall?: ApiFirewall;
  /** Alarms and dashboard. */
  readonly monitoring: McpMonitoring;
  /** Issuer, resource and metadata URL when `auth` is `oauth`; undefined when the endpoint is open. */
  readonly auth?: McpEndpointAuth;
  /** The key sealing handshake-era session ids; undefined when `mcpEnvironment` brings its own. */
  readonly sessions?: SessionSecret;
  /**
   * The call state's table (mid-call questions, cancellations, cut streams' logs), with `api: 'rest-streaming'` (the
   * only API that asks).
   */
  readonly callState?: CallStateTable;
  /** @deprecated Renamed `callState` (the same table). */
  readonly asking?: CallStateTable;

  constructor(scope: Construct, id: string, props: McpEndpointProps = {}) {
    super(scope, id);
    const settings = endpointSettings(this, props);
    this.api = settings.api;
    const firewall = checkedFirewall(this, props);
    if (firewall) this.firewall = firewall;

    const functions = endpointFunctions(this, props, settings);
    this.outputs = functions.outputs;
    this.resourcesFunction = functions.resourcesFunction;
    this.tasks = functions.tasks;
    this.mcpFunction = functions.mcpFunction;
    const asking = endpointAsking(this, props, settings, this.mcpFunction);
    if (asking.sessions) this.sessions = asking.sessions;
    if (asking.callState) this.callState = this.asking = asking.callState;

    const domainUrl = domainUrlOf(props, settings);
    const oauth = chosenOAuth(this, props, domainUrl);
    const metadataPaths = oauth ? wellKnownPathsOf(props, settings, oauth.resource ?? domainUrl) : undefined;
    const api = endpointApi(this, props, settings, { handler: this.mcpFunction, metadataPaths, firewall });
    if (api.httpApi) this.httpApi = api.httpApi;
    if (api.restApi) this.restApi = api.restApi;
    if (api.domain) this.domain = api.domain;
    this.url = api.url;
    if (oauth)
      this.auth = authorize(this, {
        oauth,
        props,
        serverName: settings.serverName,
        api,
        mcpFunction: this.mcpFunction,
        mcpEnvironment: functions.mcpEnvironment,
        metadataPath: metadataPaths![0]!,
      });
    this.monitoring = this.monitor(props, settings, api.stage);
  }

  /** Alarms and a dashboard for the three functions, the API stage and, with tool metrics, each tool. */
  private monitor(
    props: McpEndpointProps,
    settings: EndpointSettings,
    stage: ApiStageMetrics,
  ): McpMonitoring {
    const { config, serverName } = settings;
    return new McpMonitoring(this, 'Monitoring', {
      functions: [
        { label: 'Mcp', function: this.mcpFunction, timeout: settings.mcpTimeout },
        { label: 'Resources', function: this.resourcesFunction, timeout: settings.resourcesTimeout },
        { label: 'Worker', function: this.tasks.workerFunction, timeout: this.tasks.timeout },
      ],
      stage,
      requestLogGroup: this.mcpFunction.logGroup,
      alarmActions: props.alarmActions,
      toolMetrics: config.toolMetrics
        ? { namespace: config.toolMetrics.namespace, service: serverName, tools: toolNamesOf(props, config) }
        : undefined,
    });
  }
}
