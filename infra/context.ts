import { Duration } from 'aws-cdk-lib';
import { Defaults } from '@mcp-lambda/server';
import { FUNCTION_LOG_LEVELS, type FunctionLogLevel } from '@mcp-lambda/cdk';
import {
  MCP_API_KINDS,
  type McpApiKind,
  type McpAuthProps,
  type McpDomainProps,
  type McpEndpointProps,
} from '@mcp-lambda/cdk';
import { domainProblem } from '@mcp-lambda/cdk';
import { COMMON_RULE_SET_BODY_RULES } from '@mcp-lambda/cdk';
import { isLogRetention, removalPolicyNamed } from '@mcp-lambda/cdk';

/** What `infra/app.ts` needs to build the stack, read from CDK context (cdk.json `context` or `-c key=value`). */
export interface AppSettings {
  /** CloudFormation stack name. */
  stackName: string;
  /** ARN of an SNS topic that receives alarm state changes, if any. */
  alarmTopicArn?: string;
  /** Email address subscribed to a new alarm topic, if any. */
  alarmEmail?: string;
  endpoint: McpEndpointProps;
}

/** Every context key the app reads; infra/README.md's configuration table lists the same keys with their defaults. */
export const CONTEXT_KEYS = [
  'stackName',
  'serverName',
  'api',
  'stageName',
  'allowedOrigins',
  'throttleRateLimit',
  'throttleBurstLimit',
  'offloadThresholdBytes',
  'offloadTtlDays',
  'mcpMemorySize',
  'mcpTimeoutSeconds',
  'resourcesMemorySize',
  'resourcesTimeoutSeconds',
  'logLevel',
  'logRetentionDays',
  'removalPolicy',
  'alarmTopicArn',
  'alarmEmail',
  'auth',
  'authIssuer',
  'authCognito',
  'authResource',
  'authAudiences',
  'authScopes',
  'authJwksUrl',
  'authCognitoDomainPrefix',
  'authCognitoCallbackUrls',
  'toolMetrics',
  'metricsNamespace',
  'domainName',
  'domainCertificateArn',
  'domainHostedZoneId',
  'domainHostedZoneName',
  'disableExecuteApiEndpoint',
  'waf',
  'wafRateLimit',
  'wafCountOnly',
  'tracing',
] as const;

/** Context keys that only mean something with `auth=oauth`: every `auth…` key but `auth` itself. */
const OAUTH_KEYS = CONTEXT_KEYS.filter((key) => key.startsWith('auth') && key !== 'auth');

export type ContextKey = (typeof CONTEXT_KEYS)[number];

/** A context value the app cannot use: the user's to fix, so `infra/app.ts` prints its message alone. */
export class ContextError extends Error {
  override name = 'ContextError';
}

function fail(key: ContextKey, expected: string, value: unknown): never {
  throw new ContextError(`Context "${key}" must be ${expected} (got ${JSON.stringify(value)})`);
}

/**
 * Reads the app settings from CDK context. Values from `-c key=value` arrive as strings and values from cdk.json
 * keep their JSON type; both are accepted. Only types are checked here; ranges are checked by the constructs.
 */
export function readSettings(get: (key: ContextKey) => unknown): AppSettings {
  const text = (key: ContextKey): string | undefined => {
    const value = get(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') fail(key, 'a string', value);
    return value;
  };
  const integer = (key: ContextKey): number | undefined => {
    const value = get(key);
    if (value === undefined || value === null || value === '') return undefined;
    const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n)) fail(key, 'an integer', value);
    return n;
  };
  const list = (key: ContextKey): string[] | undefined => {
    const value = get(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'string')
      return value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
    fail(key, 'a comma-separated string or an array of strings', value);
  };

  const api = text('api')?.toLowerCase();
  if (api !== undefined && !MCP_API_KINDS.includes(api as McpApiKind))
    fail('api', MCP_API_KINDS.map((k) => `"${k}"`).join(' or '), get('api'));
  const logLevel = text('logLevel')?.toUpperCase();
  if (logLevel !== undefined && !FUNCTION_LOG_LEVELS.includes(logLevel as FunctionLogLevel))
    fail('logLevel', `one of ${FUNCTION_LOG_LEVELS.join(', ')}`, get('logLevel'));
  const retention = integer('logRetentionDays');
  if (retention !== undefined && !isLogRetention(retention))
    fail(
      'logRetentionDays',
      'a CloudWatch Logs retention (1, 3, 5, 7, 14, 30, 60, 90, 180, 365, ...)',
      retention,
    );
  const removal = text('removalPolicy')?.toLowerCase();
  if (removal !== undefined && removal !== 'destroy' && removal !== 'retain')
    fail('removalPolicy', '"destroy" or "retain"', get('removalPolicy'));
  const seconds = (key: ContextKey) => {
    const value = integer(key);
    return value === undefined ? undefined : Duration.seconds(value);
  };

  const flag = (key: ContextKey): boolean | undefined => {
    const value = get(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    fail(key, 'true or false', value);
  };
  let auth: McpAuthProps | undefined;
  const given = (key: ContextKey) => get(key) !== undefined && get(key) !== '';
  // OAuth settings without `auth` mean auth=oauth: they are honoured, never silently dropped.
  const implied = text('auth') === undefined && OAUTH_KEYS.some(given);
  const mode = implied ? 'oauth' : text('auth')?.toLowerCase();
  if (given('authCognitoCallbackUrls'))
    fail(
      'authCognitoCallbackUrls',
      "left out: the Cognito app client has one callback, the authorization bridge's, and MCP clients register " +
        'their own redirect URIs with the bridge',
      get('authCognitoCallbackUrls'),
    );
  if (mode === 'none') {
    const stray = OAUTH_KEYS.find(given);
    if (stray) fail(stray, 'left out unless auth is "oauth"', get(stray));
    auth = { mode: 'none' };
  } else if (mode === 'oauth') {
    const issuer = text('authIssuer');
    // Implied oauth without an issuer of your own is the default: Cognito behind the bridge.
    const cognito = flag('authCognito') ?? (implied && !issuer);
    if (!issuer === !cognito)
      fail(
        'authIssuer',
        'an issuer URL, or left out with authCognito=true (exactly one of them)',
        get('authIssuer'),
      );
    const domainPrefix = text('authCognitoDomainPrefix');
    if (!cognito && domainPrefix)
      fail('authCognitoDomainPrefix', 'used only with authCognito=true', get('authCognitoDomainPrefix'));
    const resource = text('authResource');
    const audiences = list('authAudiences');
    const scopes = list('authScopes');
    const jwksUrl = text('authJwksUrl');
    auth = {
      mode: 'oauth',
      ...(issuer ? { issuer } : {}),
      ...(cognito ? { cognito: domainPrefix ? { domainPrefix } : {} } : {}),
      ...(resource ? { resource } : {}),
      ...(audiences ? { audiences } : {}),
      ...(scopes ? { requiredScopes: scopes } : {}),
      ...(jwksUrl ? { jwksUrl } : {}),
    };
  } else if (mode !== undefined) {
    fail('auth', '"oauth" or "none"', get('auth'));
  }

  const waf = flag('waf');
  const wafRateLimit = integer('wafRateLimit');
  if (wafRateLimit !== undefined && !waf)
    fail('wafRateLimit', 'used only with waf=true', get('wafRateLimit'));
  // `body` stands for every body rule of the common rule set; rule names are checked by ApiFirewall.
  const wafCountOnly = list('wafCountOnly')?.flatMap((rule) =>
    rule.toLowerCase() === 'body' ? COMMON_RULE_SET_BODY_RULES : [rule],
  );
  if (wafCountOnly !== undefined && !waf)
    fail('wafCountOnly', 'used only with waf=true', get('wafCountOnly'));
  if (waf && api !== 'rest-streaming')
    fail('waf', 'used with api=rest-streaming (AWS WAF protects REST API stages, not HTTP APIs)', get('waf'));

  const domain = readDomain(get, text, flag);
  if (domain && given('authResource'))
    fail(
      'authResource',
      'left out with domainName (the endpoint on the custom domain is the resource)',
      get('authResource'),
    );

  const endpoint: Record<string, unknown> = {
    serverName: text('serverName'),
    api,
    stageName: text('stageName'),
    allowedOrigins: list('allowedOrigins'),
    throttleRateLimit: integer('throttleRateLimit'),
    throttleBurstLimit: integer('throttleBurstLimit'),
    offloadThresholdBytes: integer('offloadThresholdBytes'),
    offloadTtlDays: integer('offloadTtlDays'),
    mcpMemorySize: integer('mcpMemorySize'),
    mcpTimeout: seconds('mcpTimeoutSeconds'),
    resourcesMemorySize: integer('resourcesMemorySize'),
    resourcesTimeout: seconds('resourcesTimeoutSeconds'),
    logLevel,
    logRetention: retention,
    removalPolicy: removal === undefined ? undefined : removalPolicyNamed(removal),
    auth,
    toolMetrics: flag('toolMetrics'),
    metricsNamespace: text('metricsNamespace'),
    domain,
    waf,
    wafRateLimit,
    wafCountOnlyRules: wafCountOnly,
    tracing: flag('tracing'),
  };
  const alarmTopicArn = text('alarmTopicArn');
  if (
    alarmTopicArn !== undefined &&
    !/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(alarmTopicArn)
  )
    fail('alarmTopicArn', 'an SNS topic ARN', alarmTopicArn);
  const alarmEmail = text('alarmEmail');
  if (alarmEmail !== undefined && !/^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/.test(alarmEmail))
    fail('alarmEmail', 'an email address', alarmEmail);
  if (alarmEmail && alarmTopicArn)
    fail(
      'alarmEmail',
      'left out when alarmTopicArn is set (subscribe the address to that topic)',
      alarmEmail,
    );
  return {
    stackName: text('stackName') ?? Defaults.stackName,
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
    endpoint: Object.fromEntries(
      Object.entries(endpoint).filter(([, v]) => v !== undefined),
    ) as McpEndpointProps,
  };
}

/** The custom domain settings, all or nothing: a name and a certificate (an ARN, or a zone to make one in). */
function readDomain(
  get: (key: ContextKey) => unknown,
  text: (key: ContextKey) => string | undefined,
  flag: (key: ContextKey) => boolean | undefined,
): McpDomainProps | undefined {
  const name = text('domainName')?.toLowerCase();
  const certificateArn = text('domainCertificateArn');
  const hostedZoneId = text('domainHostedZoneId');
  const zoneName = text('domainHostedZoneName')?.toLowerCase();
  const disable = flag('disableExecuteApiEndpoint');
  if (name === undefined) {
    const keys = ['domainCertificateArn', 'domainHostedZoneId', 'domainHostedZoneName'] as const;
    const stray = keys.find((key) => text(key) !== undefined);
    if (stray) fail(stray, 'used only with domainName (the custom domain)', get(stray));
    if (disable)
      fail(
        'disableExecuteApiEndpoint',
        'used only with domainName (without a custom domain the execute-api URL is the only one)',
        get('disableExecuteApiEndpoint'),
      );
    return undefined;
  }
  if ((hostedZoneId === undefined) !== (zoneName === undefined)) {
    const missing = hostedZoneId === undefined ? 'domainHostedZoneId' : 'domainHostedZoneName';
    fail(missing, 'set too: the hosted zone is named by its id and its name together', get(missing));
  }
  if (certificateArn === undefined && hostedZoneId === undefined)
    fail(
      'domainName',
      'given with a certificate: domainCertificateArn (ACM, in the stack region), or domainHostedZoneId and ' +
        'domainHostedZoneName (a DNS-validated certificate is created there)',
      get('domainName'),
    );
  const hostedZone = hostedZoneId && zoneName ? { hostedZoneId, zoneName } : undefined;
  const problem = domainProblem({ domainName: name, certificateArn, hostedZone });
  if (problem) throw new ContextError(`Context "domainName" and its settings: ${problem}`);
  return {
    name,
    ...(certificateArn ? { certificateArn } : {}),
    ...(hostedZone ? { hostedZone } : {}),
    ...(disable ? { disableExecuteApiEndpoint: true } : {}),
  };
}

/**
 * Deploying must never leave the endpoint open by default: without an `auth` setting the endpoint is protected by a
 * new Cognito user pool (`auth=oauth`, `authCognito=true`), so `cdk synth` and `cdk deploy` work on a fresh clone and
 * what they deploy is closed. An open endpoint takes an explicit `-c auth=none`; another issuer takes
 * `-c auth=oauth -c authIssuer=https://…`.
 */
export function applyAuthDefault(settings: AppSettings): AppSettings {
  if (settings.endpoint.auth) return settings;
  return { ...settings, endpoint: { ...settings.endpoint, auth: { mode: 'oauth', cognito: {} } } };
}
