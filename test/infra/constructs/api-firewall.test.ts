import { Template } from 'aws-cdk-lib/assertions';
import * as rest from 'aws-cdk-lib/aws-apigateway';
import { describe, expect, it } from 'vitest';
import {
  ApiFirewall,
  COMMON_RULE_SET_BODY_RULES,
  COMMON_RULE_SET_RULES,
} from '../../../infra/constructs/api-firewall.ts';
import { Defaults } from '../../../src/limits.ts';
import { newStack } from '../synth.ts';
import { only } from '../template.ts';

function rulesOf(template: Template) {
  const [, acl] = only(template, 'AWS::WAFv2::WebACL');
  return acl.Properties.Rules as Record<string, any>[];
}

describe('ApiFirewall', () => {
  it('is a regional web ACL that allows by default and runs the rate rule, then the three AWS managed rule groups', () => {
    const stack = newStack();
    new ApiFirewall(stack, 'Firewall');
    const template = Template.fromStack(stack);
    const [, acl] = only(template, 'AWS::WAFv2::WebACL', { Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    expect(acl.Properties.VisibilityConfig).toMatchObject({
      CloudWatchMetricsEnabled: true,
      SampledRequestsEnabled: true,
    });
    const rules = rulesOf(template);
    expect(rules.map((r) => [r.Priority, r.Name])).toEqual([
      [0, 'RateLimitPerIp'],
      [1, 'AWSManagedRulesAmazonIpReputationList'],
      [2, 'AWSManagedRulesCommonRuleSet'],
      [3, 'AWSManagedRulesKnownBadInputsRuleSet'],
    ]);
    for (const rule of rules.slice(1)) {
      expect(rule.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: rule.Name });
      expect(rule.OverrideAction).toEqual({ None: {} });
    }
    for (const rule of rules)
      expect(rule.VisibilityConfig).toEqual({
        CloudWatchMetricsEnabled: true,
        MetricName: rule.Name,
        SampledRequestsEnabled: true,
      });
  });

  it('blocks a client IP above the rate limit with 429, per 5 minutes, at the default limit unless told', () => {
    for (const [limit, expected] of [
      [undefined, Defaults.wafRateLimit],
      [500, 500],
    ] as const) {
      const stack = newStack();
      new ApiFirewall(stack, 'Firewall', limit === undefined ? {} : { rateLimit: limit });
      const [rate] = rulesOf(Template.fromStack(stack));
      expect(rate!.Statement.RateBasedStatement).toEqual({
        Limit: expected,
        AggregateKeyType: 'IP',
        EvaluationWindowSec: 300,
      });
      expect(rate!.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429 } } });
    }
  });

  it('only counts the common rule set’s 8 KB body rule: tool arguments may be larger, the function checks size', () => {
    const stack = newStack();
    new ApiFirewall(stack, 'Firewall');
    const common = rulesOf(Template.fromStack(stack)).find((r) => r.Name === 'AWSManagedRulesCommonRuleSet');
    expect(common!.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual([
      { Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } },
    ]);
  });

  it('counts instead of blocking with the common rule set rules it is given, in place of the default', () => {
    const overridesOf = (countOnlyRules: readonly string[]) => {
      const stack = newStack();
      const firewall = new ApiFirewall(stack, 'Firewall', { countOnlyRules });
      const common = rulesOf(Template.fromStack(stack)).find(
        (r) => r.Name === 'AWSManagedRulesCommonRuleSet',
      );
      return { firewall, statement: common!.Statement.ManagedRuleGroupStatement };
    };
    const body = overridesOf(COMMON_RULE_SET_BODY_RULES);
    expect(COMMON_RULE_SET_BODY_RULES).toEqual([
      'SizeRestrictions_BODY',
      'EC2MetaDataSSRF_BODY',
      'GenericLFI_BODY',
      'GenericRFI_BODY',
      'CrossSiteScripting_BODY',
    ]);
    expect(body.statement.RuleActionOverrides).toEqual(
      COMMON_RULE_SET_BODY_RULES.map((rule) => ({ Name: rule, ActionToUse: { Count: {} } })),
    );
    expect(body.firewall.countOnlyRules).toEqual(COMMON_RULE_SET_BODY_RULES);
    // Listed twice, counted once; an empty list lets every rule block, the size rule too.
    expect(
      overridesOf(['CrossSiteScripting_BODY', 'CrossSiteScripting_BODY']).statement.RuleActionOverrides,
    ).toEqual([{ Name: 'CrossSiteScripting_BODY', ActionToUse: { Count: {} } }]);
    expect(overridesOf([]).statement.RuleActionOverrides).toBeUndefined();
    expect(COMMON_RULE_SET_RULES).toHaveLength(22);
  });

  it('refuses a count-only rule the common rule set does not have, naming its body rules', () => {
    expect(
      () =>
        new ApiFirewall(newStack(), 'Firewall', { countOnlyRules: ['CrossSiteScripting_Body', 'SQLi_BODY'] }),
    ).toThrow(
      /countOnlyRules must name rules of the AWS managed common rule set \(got CrossSiteScripting_Body, SQLi_BODY; its body rules are SizeRestrictions_BODY, .*CrossSiteScripting_BODY\)/,
    );
  });

  it('refuses a rate limit AWS WAF would refuse', () => {
    for (const rateLimit of [9, 2_000_000_001, 100.5])
      expect(() => new ApiFirewall(newStack(), 'Firewall', { rateLimit })).toThrow(
        /rateLimit must be an integer from 10 to 2,000,000,000/,
      );
  });

  it('protects a REST API stage through an association made after the stage', () => {
    const stack = newStack();
    const api = new rest.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
    api.root.addMethod('GET', new rest.MockIntegration());
    const firewall = new ApiFirewall(stack, 'Firewall');
    firewall.protect('Stage', api.deploymentStage);
    const template = Template.fromStack(stack);
    const [aclId] = only(template, 'AWS::WAFv2::WebACL');
    const [stageId] = only(template, 'AWS::ApiGateway::Stage');
    const [, association] = only(template, 'AWS::WAFv2::WebACLAssociation', {
      WebACLArn: { 'Fn::GetAtt': [aclId, 'Arn'] },
    });
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain('/stages/');
    expect(association.DependsOn).toContain(stageId);
  });
});
