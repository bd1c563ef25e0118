/**
 * A CDK app's settings from its context (`-c auth=none`, `-c api=rest-streaming`, throttles, …): each key read and
 * checked in one table, then the keys that go together assembled into the endpoint's props. The app hands in its
 * context (`(key) => app.node.tryGetContext(key)`); a value it cannot use is a ContextError naming the key.
 */
import { Defaults } from '@mcp-lambda/server/limits';
import { domainProblem } from '../api-domain.ts';
import { COMMON_RULE_SET_BODY_RULES } from '../api-firewall.ts';
import { FUNCTION_LOG_LEVELS } from '../bundled-function.ts';
import type { McpAuthProps } from '../endpoint/auth-props.ts';
import { MCP_API_KINDS, type McpDomainProps, type McpEndpointProps } from '../endpoint/props.ts';
import {
  ContextError,
  fail,
  flag,
  given,
  integer,
  list,
  matching,
  oneOf,
  refused,
  removalPolicy,
  retention,
  seconds,
  text,
  type Parser,
} from './parsers.ts';

/** What the CDK app needs to build the stack, read from CDK context (cdk.json `context` or `-c key=value`). */
export interface AppSettings {
  /** CloudFormation stack name. */
  stackName: string;
  /** ARN of an SNS topic that receives alarm state changes, if any. */
  alarmTopicArn?: string;
  /** Email address subscribed to a new alarm topic, if any. */
  alarmEmail?: string;
  /** Whether the stack turns on CloudWatch Transaction Search (account-wide), which spans sent to X-Ray need. */
  transactionSearch?: boolean;
  endpoint: McpEndpointProps;
}

/** Where a setting goes: a prop of the endpoint (`auth` and `domain` are assembled from several keys), or the app's. */
type Target = { readonly endpoint: keyof McpEndpointProps } | { readonly app: AppSetting };
/** The settings that are the app's, not the endpoint's. */
type AppSetting = 'stackName' | 'alarmTopicArn' | 'alarmEmail' | 'transactionSearch';

/** One context setting: its key, how its value is read, where it goes, and what holds when it is left out. */
interface Setting<K extends string, T> {
  readonly key: K;
  readonly parse: Parser<T>;
  readonly target: Target;
  /** The app's own default; without one, the construct's default holds (the template's infra/README.md lists them). */
  readonly default?: T;
}

const row = <K extends string, T>(key: K, parse: Parser<T>, target: Target, fallback?: T): Setting<K, T> => ({
  key,
  parse,
  target,
  ...(fallback === undefined ? {} : { default: fallback }),
});
const endpoint = (prop: keyof McpEndpointProps): Target => ({ endpoint: prop });
const app = (setting: AppSetting): Target => ({ app: setting });

const lowerCase: Parser<string> = (value, key) => text(value, key).toLowerCase();
const apiKind = oneOf(MCP_API_KINDS, MCP_API_KINDS.map((k) => `"${k}"`).join(' or '), 'lower');
const logLevel = oneOf(FUNCTION_LOG_LEVELS, `one of ${FUNCTION_LOG_LEVELS.join(', ')}`, 'upper');
const authMode = oneOf(['oauth', 'none'] as const, '"oauth" or "none"', 'lower');
const snsTopicArn = matching(
  /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/,
  'an SNS topic ARN',
);
const emailAddress = matching(/^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/, 'an email address');
const noCallbackUrls = refused(
  "left out: the Cognito app client has one callback, the authorization bridge's, and MCP clients register " +
    'their own redirect URIs with the bridge',
);
// `body` stands for every body rule of the common rule set; rule names are checked by ApiFirewall.
const countOnlyRules: Parser<string[]> = (value, key) =>
  list(value, key).flatMap((rule) => (rule.toLowerCase() === 'body' ? COMMON_RULE_SET_BODY_RULES : [rule]));

/** Every setting the app reads, in the order of the configuration table of the template's infra/README.md. */
const SETTINGS = [
  row('stackName', text, app('stackName'), Defaults.stackName),
  row('serverName', text, endpoint('serverName')),
  row('api', apiKind, endpoint('api')),
  row('stageName', text, endpoint('stageName')),
  row('allowedOrigins', list, endpoint('allowedOrigins')),
  row('throttleRateLimit', integer, endpoint('throttleRateLimit')),
  row('throttleBurstLimit', integer, endpoint('throttleBurstLimit')),
  row('offloadThresholdBytes', integer, endpoint('offloadThresholdBytes')),
  row('offloadTtlDays', integer, endpoint('offloadTtlDays')),
  row('mcpMemorySize', integer, endpoint('mcpMemorySize')),
  row('mcpTimeoutSeconds', seconds, endpoint('mcpTimeout')),
  row('resourcesMemorySize', integer, endpoint('resourcesMemorySize')),
  row('resourcesTimeoutSeconds', seconds, endpoint('resourcesTimeout')),
  row('logLevel', logLevel, endpoint('logLevel')),
  row('logRetentionDays', retention, endpoint('logRetention')),
  row('removalPolicy', removalPolicy, endpoint('removalPolicy')),
  row('alarmTopicArn', snsTopicArn, app('alarmTopicArn')),
  row('alarmEmail', emailAddress, app('alarmEmail')),
  row('auth', authMode, endpoint('auth')),
  row('authIssuer', text, endpoint('auth')),
  row('authCognito', flag, endpoint('auth')),
  row('authResource', text, endpoint('auth')),
  row('authAudiences', list, endpoint('auth')),
  row('authScopes', list, endpoint('auth')),
  row('authJwksUrl', text, endpoint('auth')),
  row('authCognitoDomainPrefix', text, endpoint('auth')),
  row('authCognitoCallbackUrls', noCallbackUrls, endpoint('auth')),
  row('toolMetrics', flag, endpoint('toolMetrics')),
  row('metricsNamespace', text, endpoint('metricsNamespace')),
  row('domainName', lowerCase, endpoint('domain')),
  row('domainCertificateArn', text, endpoint('domain')),
  row('domainHostedZoneId', text, endpoint('domain')),
  row('domainHostedZoneName', lowerCase, endpoint('domain')),
  row('disableExecuteApiEndpoint', flag, endpoint('domain')),
  row('waf', flag, endpoint('waf')),
  row('wafRateLimit', integer, endpoint('wafRateLimit')),
  row('wafCountOnly', countOnlyRules, endpoint('wafCountOnlyRules')),
  row('tracing', flag, endpoint('tracing')),
  row('transactionSearch', flag, app('transactionSearch')),
] as const;

export type ContextKey = (typeof SETTINGS)[number]['key'];

/** Every context key the app reads; the template's infra/README.md lists the same keys with their defaults. */
export const CONTEXT_KEYS: readonly ContextKey[] = SETTINGS.map((setting) => setting.key);

/** The values given, each read by its row's parser. */
type Values = { readonly [S in (typeof SETTINGS)[number] as S['key']]?: ReturnType<S['parse']> };
/** The value of a key as given, for error messages. */
type Raw = (key: ContextKey) => unknown;

/** Keys that only mean something with `auth=oauth`: every `auth…` key but `auth` itself. */
const OAUTH_KEYS = CONTEXT_KEYS.filter((key) => key.startsWith('auth') && key !== 'auth');

/** The OAuth settings: an issuer of your own, or (the default when only OAuth keys are given) Cognito behind the bridge. */
function readOAuth(v: Values, raw: Raw, implied: boolean): McpAuthProps {
  const issuer = v.authIssuer;
  const cognito = v.authCognito ?? (implied && !issuer);
  if (!issuer === !cognito)
    fail(
      'authIssuer',
      'an issuer URL, or left out with authCognito=true (exactly one of them)',
      raw('authIssuer'),
    );
  const domainPrefix = v.authCognitoDomainPrefix;
  if (!cognito && domainPrefix)
    fail('authCognitoDomainPrefix', 'used only with authCognito=true', raw('authCognitoDomainPrefix'));
  return {
    mode: 'oauth',
    ...(issuer ? { issuer } : {}),
    ...(cognito ? { cognito: domainPrefix ? { domainPrefix } : {} } : {}),
    ...(v.authResource ? { resource: v.authResource } : {}),
    ...(v.authAudiences ? { audiences: v.authAudiences } : {}),
    ...(v.authScopes ? { requiredScopes: v.authScopes } : {}),
    ...(v.authJwksUrl ? { jwksUrl: v.authJwksUrl } : {}),
  };
}

/** Who may call: OAuth settings without `auth` mean auth=oauth (honoured, never silently dropped). */
function readAuth(v: Values, raw: Raw): McpAuthProps | undefined {
  const implied = v.auth === undefined && OAUTH_KEYS.some((key) => v[key] !== undefined);
  const mode = implied ? 'oauth' : v.auth;
  if (mode === 'none') {
    const stray = OAUTH_KEYS.find((key) => v[key] !== undefined);
    if (stray) fail(stray, 'left out unless auth is "oauth"', raw(stray));
    return { mode: 'none' };
  }
  return mode === 'oauth' ? readOAuth(v, raw, implied) : undefined;
}

/** The custom domain settings, all or nothing: a name and a certificate (an ARN, or a zone to make one in). */
function readDomain(v: Values, raw: Raw): McpDomainProps | undefined {
  const { domainName: name, domainCertificateArn: certificateArn, domainHostedZoneId: hostedZoneId } = v;
  const zoneName = v.domainHostedZoneName;
  if (name === undefined) {
    const keys = ['domainCertificateArn', 'domainHostedZoneId', 'domainHostedZoneName'] as const;
    const stray = keys.find((key) => v[key] !== undefined);
    if (stray) fail(stray, 'used only with domainName (the custom domain)', raw(stray));
    if (v.disableExecuteApiEndpoint)
      fail(
        'disableExecuteApiEndpoint',
        'used only with domainName (without a custom domain the execute-api URL is the only one)',
        raw('disableExecuteApiEndpoint'),
      );
    return undefined;
  }
  if ((hostedZoneId === undefined) !== (zoneName === undefined)) {
    const missing = hostedZoneId === undefined ? 'domainHostedZoneId' : 'domainHostedZoneName';
    fail(missing, 'set too: the hosted zone is named by its id and its name together', raw(missing));
  }
  if (certificateArn === undefined && hostedZoneId === undefined)
    fail(
      'domainName',
      'given with a certificate: domainCertificateArn (ACM, in the stack region), or domainHostedZoneId and ' +
        'domainHostedZoneName (a DNS-validated certificate is created there)',
      raw('domainName'),
    );
  const hostedZone = hostedZoneId && zoneName ? { hostedZoneId, zoneName } : undefined;
  const problem = domainProblem({ domainName: name, certificateArn, hostedZone });
  if (problem) throw new ContextError(`Context "domainName" and its settings: ${problem}`);
  return {
    name,
    ...(certificateArn ? { certificateArn } : {}),
    ...(hostedZone ? { hostedZone } : {}),
    ...(v.disableExecuteApiEndpoint ? { disableExecuteApiEndpoint: true } : {}),
  };
}

/** The settings that only go together: the firewall's, the alarm destination, the resource beside a domain. */
function checkCombinations(v: Values, raw: Raw, domain: McpDomainProps | undefined): void {
  if (v.wafRateLimit !== undefined && !v.waf)
    fail('wafRateLimit', 'used only with waf=true', raw('wafRateLimit'));
  if (v.wafCountOnly !== undefined && !v.waf)
    fail('wafCountOnly', 'used only with waf=true', raw('wafCountOnly'));
  if (v.waf && v.api !== 'rest-streaming')
    fail('waf', 'used with api=rest-streaming (AWS WAF protects REST API stages, not HTTP APIs)', raw('waf'));
  if (domain && v.authResource !== undefined)
    fail(
      'authResource',
      'left out with domainName (the endpoint on the custom domain is the resource)',
      raw('authResource'),
    );
  if (v.alarmEmail && v.alarmTopicArn)
    fail(
      'alarmEmail',
      'left out when alarmTopicArn is set (subscribe the address to that topic)',
      v.alarmEmail,
    );
}

/**
 * Reads the app settings from CDK context: each key given is read by its row of the table above, then the keys
 * that go together (authorization, custom domain, firewall, alarms) are checked and assembled.
 */
export function readSettings(get: (key: ContextKey) => unknown): AppSettings {
  const values: Partial<Record<ContextKey, unknown>> = {};
  for (const { key, parse } of SETTINGS) if (given(get(key))) values[key] = parse(get(key), key);
  const v = values as Values;
  const auth = readAuth(v, get);
  const domain = readDomain(v, get);
  checkCombinations(v, get, domain);
  const assembled: Partial<Record<keyof McpEndpointProps, unknown>> = { auth, domain };
  const app: Record<string, unknown> = {};
  const props: Record<string, unknown> = {};
  for (const setting of SETTINGS) {
    const value = v[setting.key] ?? ('default' in setting ? setting.default : undefined);
    if ('app' in setting.target) {
      if (value !== undefined) app[setting.target.app] = value;
    } else {
      const prop = setting.target.endpoint;
      const resolved = prop in assembled ? assembled[prop] : value;
      if (resolved !== undefined && !(prop in props)) props[prop] = resolved;
    }
  }
  return { ...(app as { stackName: string }), endpoint: props as McpEndpointProps };
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
