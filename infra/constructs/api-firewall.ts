import type * as rest from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { Defaults } from '../../src/limits.ts';

/** Properties of an {@link ApiFirewall}. */
export interface ApiFirewallProps {
  /**
   * Requests one client IP address may send in any 5 minutes; above it the rate-based rule answers 429 until the
   * address slows down (AWS WAF accepts 10 to 2,000,000,000).
   * @default 3000 (`Defaults.wafRateLimit`: 10 a second on average)
   */
  readonly rateLimit?: number;
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

/**
 * Rules of the common rule set that only count, never block. `SizeRestrictions_BODY` blocks bodies above 8 KB: a
 * tool call's arguments may be larger, and the MCP function enforces its own body limit (MCP_MAX_BODY_BYTES) with
 * the error MCP clients expect.
 */
const COUNT_ONLY_RULES = ['SizeRestrictions_BODY'] as const;

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/**
 * A regional AWS WAF web ACL for the API (README "Web application firewall"): the AWS managed IP reputation list,
 * common rule set and known bad inputs, and a rate-based rule per client IP; everything else is allowed. AWS WAF
 * protects REST API stages (and CloudFront, ALB, AppSync, …), not HTTP APIs: `protect` takes a REST API stage.
 * Every rule writes CloudWatch metrics (namespace `AWS/WAFV2`) and keeps sampled requests.
 */
export class ApiFirewall extends Construct {
  /** The web ACL. */
  readonly webAcl: wafv2.CfnWebACL;
  /** The rate-based rule's limit, requests per client IP in 5 minutes. */
  readonly rateLimit: number;

  constructor(scope: Construct, id: string, props: ApiFirewallProps = {}) {
    super(scope, id);
    const rateLimit = props.rateLimit ?? Defaults.wafRateLimit;
    if (!Number.isInteger(rateLimit) || rateLimit < 10 || rateLimit > 2_000_000_000)
      throw new Error(
        `ApiFirewall: rateLimit must be an integer from 10 to 2,000,000,000 requests per 5 minutes (got ${rateLimit})`,
      );
    this.rateLimit = rateLimit;
    const managed = MANAGED_RULE_GROUPS.map((name, i): wafv2.CfnWebACL.RuleProperty => ({
      name,
      priority: i + 1,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ...(name === 'AWSManagedRulesCommonRuleSet'
            ? {
                ruleActionOverrides: COUNT_ONLY_RULES.map((rule) => ({
                  name: rule,
                  actionToUse: { count: {} },
                })),
              }
            : {}),
        },
      },
      visibilityConfig: visibility(name),
    }));
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
