import type * as rest from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { BRIDGE_PATHS } from '@mcp-lambda/bridge';
import { Defaults } from '@mcp-lambda/server/limits';

/** Properties of an {@link ApiFirewall}. */
export interface ApiFirewallProps {
  /**
   * Requests one client IP address may send in any 5 minutes; above it the rate-based rule answers 429 until the
   * address slows down (AWS WAF accepts 10 to 2,000,000,000).
   * @default 3000 (`Defaults.wafRateLimit`: 10 a second on average)
   */
  readonly rateLimit?: number;
  /**
   * Rules of the AWS managed common rule set that only count matching requests (CloudWatch metric
   * `CountedRequests`, sampled requests) instead of blocking them. The rules that inspect the body
   * (`COMMON_RULE_SET_BODY_RULES`) look for script tags, `../` paths and URLs in any JSON string, so they can block
   * legitimate tool arguments (code, file paths, HTML); list them here when your tools take such input. The list
   * replaces the default: leave `SizeRestrictions_BODY` out and bodies over 8 KB are blocked.
   * @default ['SizeRestrictions_BODY'] (`DEFAULT_COUNT_ONLY_RULES`)
   */
  readonly countOnlyRules?: readonly string[];
  /**
   * The authorization bridge's `/oauth/*` routes are on the protected API. Sign-in then carries URLs and long
   * queries the common rule set would block: loopback redirect URIs (`http://127.0.0.1:…`, RFC 8252) in the
   * authorize query, the registration body and the token request (`GenericRFI_QUERYARGUMENTS`, `GenericRFI_BODY`),
   * and the authorize and Cognito callback queries, which with long redirect URIs and the sealed state pass 2,048
   * bytes (`SizeRestrictions_QUERYSTRING`). Those rules then count, and the rules after the group
   * (`BRIDGE_EXEMPTIONS`) block on their labels everywhere except on the bridge paths that need them.
   * @default false
   */
  readonly authorizationBridge?: boolean;
}

/** AWS managed rule groups the web ACL runs, in priority order after the rate-based rule. */
const MANAGED_RULE_GROUPS = [
  // Requests from addresses Amazon threat intelligence lists as bots and attackers: cheapest, checked first.
  'AWSManagedRulesAmazonIpReputationList',
  // OWASP-style generic protection (bad bots, XSS, path traversal, oversized URIs and headers).
  'AWSManagedRulesCommonRuleSet',
  // Request patterns of known exploits (Log4j, Java deserialization, localhost Host headers).
  'AWSManagedRulesKnownBadInputsRuleSet',
] as const;

/** The rules of the AWS managed common rule set (version 1), as AWS WAF names them in overrides and metrics. */
export const COMMON_RULE_SET_RULES = [
  'NoUserAgent_HEADER',
  'UserAgent_BadBots_HEADER',
  'SizeRestrictions_QUERYSTRING',
  'SizeRestrictions_Cookie_HEADER',
  'SizeRestrictions_BODY',
  'SizeRestrictions_URIPATH',
  'EC2MetaDataSSRF_BODY',
  'EC2MetaDataSSRF_COOKIE',
  'EC2MetaDataSSRF_URIPATH',
  'EC2MetaDataSSRF_QUERYARGUMENTS',
  'GenericLFI_QUERYARGUMENTS',
  'GenericLFI_URIPATH',
  'GenericLFI_BODY',
  'RestrictedExtensions_URIPATH',
  'RestrictedExtensions_QUERYARGUMENTS',
  'GenericRFI_QUERYARGUMENTS',
  'GenericRFI_BODY',
  'GenericRFI_URIPATH',
  'CrossSiteScripting_COOKIE',
  'CrossSiteScripting_QUERYARGUMENTS',
  'CrossSiteScripting_BODY',
  'CrossSiteScripting_URIPATH',
] as const;

/** The common rule set's rules that inspect the request body: an MCP request carries the tool arguments there. */
export const COMMON_RULE_SET_BODY_RULES = COMMON_RULE_SET_RULES.filter((rule) => rule.endsWith('_BODY'));

/**
 * Rules of the common rule set that only count by default. `SizeRestrictions_BODY` blocks bodies above 8 KB: a
 * tool call's arguments may be larger, and the MCP function enforces its own body limit (MCP_MAX_BODY_BYTES) with
 * the error MCP clients expect.
 */
export const DEFAULT_COUNT_ONLY_RULES: readonly string[] = ['SizeRestrictions_BODY'];

/**
 * With the authorization bridge on the protected API: the common rule set rules that only count, and the rules that
 * run after the group and block a request on the rule's label (the same 403 the rule would answer) unless its path
 * is one where the bridge needs what the rule matches. Label names as AWS documents them for the core rule set.
 */
export const BRIDGE_EXEMPTIONS = [
  {
    name: 'CommonRuleSetRfiOutsideOAuth',
    rules: ['GenericRFI_QUERYARGUMENTS', 'GenericRFI_BODY'],
    labels: [
      'awswaf:managed:aws:core-rule-set:GenericRFI_QueryArguments',
      'awswaf:managed:aws:core-rule-set:GenericRFI_Body',
    ],
    // Every bridge route: redirect URIs travel in the authorize query, the registration and token bodies.
    exemptPathPrefixes: ['/oauth/'],
  },
  {
    name: 'CommonRuleSetQueryStringSizeOutsideOAuth',
    rules: ['SizeRestrictions_QUERYSTRING'],
    labels: ['awswaf:managed:aws:core-rule-set:SizeRestrictions_QueryString'],
    // The two legs whose query carries redirect URIs and state; the bridge caps both itself.
    exemptPathPrefixes: [BRIDGE_PATHS.authorize, BRIDGE_PATHS.callback],
  },
] as const;

/** One statement of several (AWS WAF wants two or more in an `or`). */
const anyOf = (statements: wafv2.CfnWebACL.StatementProperty[]): wafv2.CfnWebACL.StatementProperty =>
  statements.length === 1 ? statements[0]! : { orStatement: { statements } };

/**
 * The path starts with the prefix, after URL decoding and path normalization (`/oauth/../mcp` is `/mcp`), so an
 * exemption cannot be borrowed by a path that API Gateway routes elsewhere.
 */
const pathStartsWith = (prefix: string): wafv2.CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: 'STARTS_WITH',
    searchString: prefix,
    textTransformations: [
      { priority: 0, type: 'URL_DECODE' },
      { priority: 1, type: 'NORMALIZE_PATH' },
    ],
  },
});

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/** A bridge exemption: rules that block everywhere but under some path prefixes, found by their labels. */
type Exemption = { name: string; rules: string[]; labels: string[]; exemptPathPrefixes: readonly string[] };

/** The bridge exemptions still needed: a rule counted everywhere needs none. */
function exemptionsOf(authorizationBridge: boolean, countOnly: readonly string[]): Exemption[] {
  return (authorizationBridge ? BRIDGE_EXEMPTIONS : [])
    .map((exemption) => {
      const kept = exemption.rules
        .map((rule, i) => ({ rule, label: exemption.labels[i]! }))
        .filter(({ rule }) => !countOnly.includes(rule));
      return { ...exemption, rules: kept.map((k) => k.rule), labels: kept.map((k) => k.label) };
    })
    .filter((exemption) => exemption.rules.length > 0);
}

/** An exempted rule counts in the group, then blocks every request it labelled outside the exempt paths. */
const blockedOutside = (exemption: Exemption): Omit<wafv2.CfnWebACL.RuleProperty, 'priority'> => ({
  name: exemption.name,
  action: { block: {} },
  statement: {
    andStatement: {
      statements: [
        anyOf(exemption.labels.map((key) => ({ labelMatchStatement: { scope: 'LABEL', key } }))),
        { notStatement: { statement: anyOf(exemption.exemptPathPrefixes.map(pathStartsWith)) } },
      ],
    },
  },
  visibilityConfig: visibility(exemption.name),
});

/** The managed rule groups in order, `counted` rules of the common rule set overridden to count, from priority 1. */
function managedRules(
  counted: readonly string[],
  exemptions: readonly Exemption[],
): wafv2.CfnWebACL.RuleProperty[] {
  return MANAGED_RULE_GROUPS.flatMap((name): Omit<wafv2.CfnWebACL.RuleProperty, 'priority'>[] => [
    {
      name,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ...(name === 'AWSManagedRulesCommonRuleSet' && counted.length > 0
            ? {
                ruleActionOverrides: counted.map((rule) => ({
                  name: rule,
                  actionToUse: { count: {} },
                })),
              }
            : {}),
        },
      },
      visibilityConfig: visibility(name),
    },
    // Labels exist only for rules that run after the group that adds them: right after it.
    ...(name === 'AWSManagedRulesCommonRuleSet' ? exemptions.map(blockedOutside) : []),
  ]).map((rule, i): wafv2.CfnWebACL.RuleProperty => ({ ...rule, priority: i + 1 }));
}

/**
 * A regional AWS WAF web ACL for the API (docs/operations.md): the AWS managed IP reputation list,
 * common rule set and known bad inputs, and a rate-based rule per client IP; everything else is allowed. AWS WAF
 * protects REST API stages (and CloudFront, ALB, AppSync, …), not HTTP APIs: `protect` takes a REST API stage.
 * Every rule writes CloudWatch metrics (namespace `AWS/WAFV2`) and keeps sampled requests.
 */
export class ApiFirewall extends Construct {
  /** The web ACL. */
  readonly webAcl: wafv2.CfnWebACL;
  /** The rate-based rule's limit, requests per client IP in 5 minutes. */
  readonly rateLimit: number;
  /** The common rule set's rules that count instead of blocking (everywhere). */
  readonly countOnlyRules: readonly string[];
  /** The common rule set's rules that block everywhere but on the bridge paths that need them (`BRIDGE_EXEMPTIONS`). */
  readonly exemptedRules: readonly string[];

  constructor(scope: Construct, id: string, props: ApiFirewallProps = {}) {
    super(scope, id);
    const rateLimit = props.rateLimit ?? Defaults.wafRateLimit;
    if (!Number.isInteger(rateLimit) || rateLimit < 10 || rateLimit > 2_000_000_000)
      throw new Error(
        `ApiFirewall: rateLimit must be an integer from 10 to 2,000,000,000 requests per 5 minutes (got ${rateLimit})`,
      );
    this.rateLimit = rateLimit;
    const countOnly = [...new Set(props.countOnlyRules ?? DEFAULT_COUNT_ONLY_RULES)];
    const unknown = countOnly.filter((rule) => !(COMMON_RULE_SET_RULES as readonly string[]).includes(rule));
    if (unknown.length > 0)
      throw new Error(
        `ApiFirewall: countOnlyRules must name rules of the AWS managed common rule set (got ${unknown.join(', ')}; ` +
          `its body rules are ${COMMON_RULE_SET_BODY_RULES.join(', ')})`,
      );
    this.countOnlyRules = countOnly;
    const exemptions = exemptionsOf(props.authorizationBridge ?? false, countOnly);
    this.exemptedRules = exemptions.flatMap((exemption) => exemption.rules);
    const managed = managedRules([...countOnly, ...this.exemptedRules], exemptions);
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'MCP endpoint: AWS managed rules and a per-IP rate limit',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('McpEndpoint'),
      // The rate rule comes first, so every request counts towards its address's rate, whatever blocks it later.
      rules: [
        {
          name: 'RateLimitPerIp',
          priority: 0,
          action: { block: { customResponse: { responseCode: 429 } } },
          statement: {
            rateBasedStatement: { limit: rateLimit, aggregateKeyType: 'IP', evaluationWindowSec: 300 },
          },
          visibilityConfig: visibility('RateLimitPerIp'),
        },
        ...managed,
      ],
    });
  }

  /** Puts a REST API stage behind the web ACL. */
  protect(id: string, stage: rest.Stage): wafv2.CfnWebACLAssociation {
    const association = new wafv2.CfnWebACLAssociation(this, id, {
      resourceArn: stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    // The stage must exist before it can be associated.
    association.node.addDependency(stage);
    return association;
  }
}
