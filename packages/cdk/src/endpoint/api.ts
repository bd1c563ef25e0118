import { Duration, Token } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { Defaults, Platform } from '@mcp-lambda/server/limits';
import { metadataPaths } from '@mcp-lambda/server/auth';
import { ApiDomain } from '../api-domain.ts';
import { ApiFirewall } from '../api-firewall.ts';
import { McpHttpApi } from '../mcp-http-api.ts';
import type { ApiStageMetrics } from '../monitoring-widgets.ts';
import { McpRestApi } from '../mcp-rest-api.ts';
import type { McpEndpointProps } from './props.ts';
import type { EndpointSettings } from './settings.ts';

/** The public side of an endpoint: one API in front of the MCP function, on a custom domain when there is one. */
export interface EndpointApi {
  /** The HTTP API, with `api: 'http'`. */
  readonly httpApi?: McpHttpApi;
  /** The streaming REST API, with `api: 'rest-streaming'`. */
  readonly restApi?: McpRestApi;
  /** The custom domain serving the API, when one is configured. */
  readonly domain?: ApiDomain;
  /** The stage whose metrics the monitoring reads. */
  readonly stage: ApiStageMetrics;
  /** The MCP endpoint URL clients connect to. */
  readonly url: string;
}

/**
 * The web ACL when `waf` is on, after checking that it can protect everything the endpoint serves: AWS WAF
 * attaches to REST API stages, not to HTTP APIs.
 */
export function checkedFirewall(scope: Construct, props: McpEndpointProps): ApiFirewall | undefined {
  if (!props.waf) {
    if (props.wafRateLimit !== undefined)
      throw new Error('McpEndpoint: wafRateLimit is used only with waf (the web application firewall)');
    if (props.wafCountOnlyRules !== undefined)
      throw new Error('McpEndpoint: wafCountOnlyRules is used only with waf (the web application firewall)');
    return undefined;
  }
  if (props.api !== 'rest-streaming')
    throw new Error(
      'McpEndpoint: waf needs api "rest-streaming": AWS WAF protects REST API stages, not HTTP APIs ' +
        '(choose the streaming REST API, or put CloudFront with a web ACL in front of the HTTP API yourself)',
    );
  if (props.auth?.mode === 'oauth' && props.auth.cognito && !props.domain)
    throw new Error(
      'McpEndpoint: waf with the Cognito authorization bridge needs a custom domain (domain, context domainName): ' +
        'without one the ' +
        'bridge runs on an HTTP API of its own, which AWS WAF cannot protect; on a domain the REST API carries it',
    );
  return new ApiFirewall(scope, 'Firewall', {
    // The bridge's sign-in routes are on the protected REST API (checked above: it has a domain).
    authorizationBridge: props.auth?.mode === 'oauth' && Boolean(props.auth.cognito),
    ...(props.wafRateLimit !== undefined ? { rateLimit: props.wafRateLimit } : {}),
    ...(props.wafCountOnlyRules !== undefined ? { countOnlyRules: props.wafCountOnlyRules } : {}),
  });
}

/**
 * RFC 9728 paths of the metadata document as the function sees them; the API URL is not known before deployment,
 * but its path is (a REST API's URL starts with its stage, which the function does not see).
 */
export function wellKnownPathsOf(
  props: McpEndpointProps,
  settings: EndpointSettings,
  resource: string | undefined,
): string[] {
  const stagePrefix = settings.streaming ? `/${props.stageName ?? Defaults.restStageName}` : '';
  return metadataPaths(
    resource !== undefined && !Token.isUnresolved(resource)
      ? resource
      : `https://endpoint.invalid${stagePrefix}${settings.config.mcpPath}`,
  );
}

/** What the API routes, besides the endpoint's own settings. */
export interface ApiTargets {
  /** The MCP function every route invokes. */
  readonly handler: lambda.IFunction;
  /** The metadata paths to route to it, when the endpoint requires tokens. */
  readonly metadataPaths: readonly string[] | undefined;
  /** The web ACL the REST API stage goes behind, with `waf`. */
  readonly firewall: ApiFirewall | undefined;
}

/** The API in front of the MCP function (an HTTP API, or a streaming REST API) and its custom domain. */
export function endpointApi(
  scope: Construct,
  props: McpEndpointProps,
  settings: EndpointSettings,
  targets: ApiTargets,
): EndpointApi {
  const apiProps = {
    handler: targets.handler,
    path: settings.config.mcpPath,
    metadataPaths: targets.metadataPaths,
    stageName: props.stageName,
    throttleRateLimit: props.throttleRateLimit,
    throttleBurstLimit: props.throttleBurstLimit,
    allowedOrigins: props.allowedOrigins,
    accessLogRetention: props.logRetention,
    removalPolicy: props.removalPolicy,
    disableExecuteApiEndpoint: props.domain?.disableExecuteApiEndpoint,
  };
  const restApi = settings.streaming
    ? new McpRestApi(scope, 'RestApi', {
        ...apiProps,
        ...(targets.firewall ? { firewall: targets.firewall } : {}),
        ...(props.tracing ? { tracing: true } : {}),
        integrationTimeout: Duration.seconds(Platform.restStreamingMaxSeconds),
      })
    : undefined;
  const httpApi = restApi ? undefined : new McpHttpApi(scope, 'HttpApi', apiProps);
  const domain = props.domain ? new ApiDomain(scope, 'Domain', domainPropsOf(props.domain)) : undefined;
  if (domain && restApi) domain.mapRestApi(restApi.api, restApi.stage);
  else if (domain) domain.mapHttpApi(httpApi!.api, httpApi!.stage);
  // One source of truth for the public URL: the custom domain when there is one (its mapping serves the stage at
  // the root), else the API's generated URL, known only after deployment.
  const url = domainUrlOf(props, settings) ?? restApi?.url ?? httpApi!.url;
  return {
    ...(restApi ? { restApi } : {}),
    ...(httpApi ? { httpApi } : {}),
    ...(domain ? { domain } : {}),
    stage: restApi?.stage ?? httpApi!.stage,
    url,
  };
}

/** The endpoint's URL on its custom domain, when it has one. */
export function domainUrlOf(props: McpEndpointProps, settings: EndpointSettings): string | undefined {
  return props.domain ? `https://${props.domain.name}${settings.config.mcpPath}` : undefined;
}

const domainPropsOf = ({ name, certificateArn, hostedZone }: NonNullable<McpEndpointProps['domain']>) => ({
  domainName: name,
  ...(certificateArn ? { certificateArn } : {}),
  ...(hostedZone ? { hostedZone } : {}),
});
