import { Annotations, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { BRIDGE_PATHS } from '@mcp-lambda/bridge';
import { Defaults } from '@mcp-lambda/server/limits';
import { metadataUrl } from '@mcp-lambda/server/auth';
import { AuthorizationApi } from '../authorization-api.ts';
import { AuthorizationBridge } from '../authorization-bridge.ts';
import type { BundledFunction } from '../bundled-function.ts';
import { CognitoIssuer } from '../cognito-issuer.ts';
import type { McpEndpointAuth, McpOAuthProps } from './auth-props.ts';
import type { EndpointApi } from './api.ts';
import type { McpEndpointProps } from './props.ts';
import { configOf, environmentOf } from './settings.ts';

/** The OAuth settings when `auth` is `oauth` (checked), undefined otherwise; warns when no choice was made. */
export function chosenOAuth(
  scope: Construct,
  props: McpEndpointProps,
  domainUrl: string | undefined,
): McpOAuthProps | undefined {
  if (!props.auth) {
    Annotations.of(scope).addWarningV2(
      'mcp-lambda-template:auth-not-chosen',
      'No authorization chosen: anyone who finds the URL can call every tool. Choose auth "oauth" (an issuer, ' +
        'or a Cognito user pool) or state auth "none" explicitly.',
    );
  }
  if (props.auth?.mode !== 'oauth') return undefined;
  const oauth = props.auth;
  if (!oauth.issuer === !oauth.cognito)
    throw new Error('McpEndpoint: auth "oauth" needs exactly one of issuer and cognito');
  // The endpoint on the custom domain is the resource: one URL for clients, tokens and metadata alike.
  if (domainUrl !== undefined && oauth.resource !== undefined && oauth.resource !== domainUrl)
    throw new Error(
      `McpEndpoint: auth resource ${JSON.stringify(oauth.resource)} differs from the endpoint on the custom ` +
        `domain (${domainUrl}); leave it out, the domain's endpoint URL is the resource`,
    );
  // RFC 9728 puts the metadata at the root of the host: a named HTTP API stage's URL cannot serve it. (A REST
  // API's always can't: there the challenges point at the metadata inside the stage, MCP_AUTH_METADATA_URL.)
  if (
    props.api !== 'rest-streaming' &&
    (props.stageName ?? Defaults.stageName) !== Defaults.stageName &&
    oauth.resource === undefined &&
    domainUrl === undefined
  )
    throw new Error(
      'McpEndpoint: auth "oauth" needs the $default stage, or a resource URL served by a custom domain',
    );
  return oauth;
}

/** What the authorization wiring is given: the chosen OAuth settings and the endpoint they protect. */
export interface AuthorizeOptions {
  readonly oauth: McpOAuthProps;
  readonly props: McpEndpointProps;
  readonly serverName: string;
  readonly api: EndpointApi;
  /** The MCP function, which validates the tokens. */
  readonly mcpFunction: BundledFunction;
  /** Its environment as created, to check the MCP_AUTH_* settings against. */
  readonly mcpEnvironment: Readonly<Record<string, string>>;
  /** The first RFC 9728 path of the metadata document, as the function sees it. */
  readonly metadataPath: string;
}

/** The bridge's parts, with the scopes it grants. */
interface Bridged {
  readonly cognito: CognitoIssuer;
  readonly bridge: AuthorizationBridge;
  readonly requiredScopes: readonly string[];
}

/**
 * With `cognito`: the authorization bridge on this API as the issuer, and the Cognito user pool it signs people
 * in with (its app client's only callback is the bridge's). The bridge's issuer is the origin clients reach the
 * API at: the API endpoint, or the custom domain of a `resource` URL.
 */
function bridged(scope: Construct, options: AuthorizeOptions, resource: string): Bridged {
  const { oauth, props } = options;
  const { httpApi, restApi, domain } = options.api;
  // On the HTTP API the bridge shares the endpoint's origin, and so on a custom domain, which serves a REST API
  // stage at the root too. A REST API stage's own URL cannot serve an issuer's root, so without a domain the
  // streaming endpoint gets an authorization API of its own (a second origin, listed in the metadata).
  const authorizationApi =
    httpApi || domain
      ? undefined
      : new AuthorizationApi(scope, 'AuthorizationApi', {
          throttleRateLimit: props.throttleRateLimit,
          throttleBurstLimit: props.throttleBurstLimit,
          accessLogRetention: props.logRetention,
          removalPolicy: props.removalPolicy,
        });
  const api = authorizationApi?.api ?? httpApi?.api;
  const issuer =
    domain?.url ??
    (httpApi && oauth.resource !== undefined
      ? new URL(oauth.resource).origin
      : (authorizationApi?.url ?? httpApi!.api.apiEndpoint));
  const cognito = new CognitoIssuer(scope, 'Issuer', {
    ...oauth.cognito,
    callbackUrl: `${issuer}${BRIDGE_PATHS.callback}`,
    removalPolicy: props.removalPolicy,
  });
  const requiredScopes = oauth.requiredScopes ?? [Defaults.bridgeScope];
  const bridge = new AuthorizationBridge(scope, 'Bridge', {
    ...(api ? { httpApi: api } : { restApi: restApi!.api }),
    issuer,
    resource,
    scopes: requiredScopes,
    resourceName: options.serverName,
    upstream: {
      issuer: cognito.issuer,
      clientId: cognito.client.userPoolClientId,
      clientSecret: cognito.clientSecret,
    },
    removalPolicy: props.removalPolicy,
    tracing: props.tracing,
  });
  // On the traced REST API, API Gateway would record the sign-in queries (codes, state) in its traces. Any
  // prefix before /oauth/ too: the stage in a URL on the API's own endpoint.
  if (!api) restApi!.neverTrace('OAuthNeverTraced', '*/oauth/*');
  return { cognito, bridge, requiredScopes };
}

/** Settings that hold URLs CloudFormation fills in; for the synth-time check they stand in as a placeholder. */
const URL_SETTINGS = ['MCP_AUTH_ISSUER', 'MCP_AUTH_RESOURCE', 'MCP_AUTH_JWKS_URL', 'MCP_AUTH_METADATA_URL'];

/** A value as the synth-time check sees it: deploy-time URLs as a placeholder, deploy-time list items left out. */
function standIn(name: string, value: string): string {
  if (!Token.isUnresolved(value)) return value;
  if (URL_SETTINGS.includes(name)) return 'https://deploy-time.invalid/';
  return value
    .split(',')
    .filter((v) => !Token.isUnresolved(v))
    .join(',');
}

/**
 * Wires `auth: oauth`: creates the bridge and its Cognito pool if asked, and gives the MCP function its MCP_AUTH_*
 * settings, checked here as the function will check them (values CloudFormation fills in, such as the API URL,
 * are well-formed by construction and stand in as placeholders for the check).
 */
export function authorize(scope: Construct, options: AuthorizeOptions): McpEndpointAuth {
  const { oauth, api } = options;
  const resource = oauth.resource ?? api.url;
  // Where the API serves the metadata before deployment fills in its URL: at its RFC 9728 location on an HTTP
  // API's $default stage, inside the stage on a REST API (so the challenges must say where).
  const apiBase = api.restApi ? api.restApi.stageUrl : api.httpApi!.stage.url.replace(/\/$/, '');
  const deployTimeMetadataUrl = Token.isUnresolved(resource)
    ? `${apiBase}${options.metadataPath}`
    : undefined;
  const made = oauth.cognito ? bridged(scope, options, resource) : undefined;
  const issuer = made?.bridge.issuer ?? oauth.issuer!;
  const requiredScopes = made?.requiredScopes ?? oauth.requiredScopes ?? [];
  const environment = environmentOf({
    MCP_AUTH_MODE: 'oauth',
    MCP_AUTH_ISSUER: issuer,
    MCP_AUTH_RESOURCE: resource,
    MCP_AUTH_AUDIENCE: oauth.audiences?.length ? oauth.audiences.join(',') : undefined,
    MCP_AUTH_REQUIRED_SCOPES: requiredScopes.length ? requiredScopes.join(',') : undefined,
    // With the bridge its key set URL is known: no discovery round trip on the first token.
    MCP_AUTH_JWKS_URL: made?.bridge.jwksUrl ?? (oauth.jwksUrl || undefined),
    MCP_AUTH_METADATA_URL: api.restApi ? deployTimeMetadataUrl : undefined,
  });
  configOf({
    ...options.mcpEnvironment,
    ...Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, standIn(k, v)])),
  });
  for (const [name, value] of Object.entries(environment)) options.mcpFunction.addEnvironment(name, value);
  return {
    issuer,
    resource,
    metadataUrl: deployTimeMetadataUrl ?? metadataUrl(resource),
    ...(made ? { cognito: made.cognito, bridge: made.bridge } : {}),
  };
}
