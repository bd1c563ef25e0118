import { Template } from 'aws-cdk-lib/assertions';
import * as rest from 'aws-cdk-lib/aws-apigateway';
import { describe, expect, it } from 'vitest';
import {
  ApiFirewall,
  BRIDGE_EXEMPTIONS,
  COMMON_RULE_SET_BODY_RULES,
  COMMON_RULE_SET_RULES,
} from '../../../src/api-firewall.ts';
import { BRIDGE_PATHS } from '@mcp-lambda/bridge';
import { Defaults } from '@mcp-lambda/server/limits';
import { newStack } from '../../../src/testing/synth.ts';
import { only } from '../../../src/testing/template.ts';

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

  describe('with the authorization bridge on the protected API', () => {
    const decodedPath = (prefix: string) => ({
      ByteMatchStatement: {
        FieldToMatch: { UriPath: {} },
        PositionalConstraint: 'STARTS_WITH',
        SearchString: prefix,
        TextTransformations: [
          { Priority: 0, Type: 'URL_DECODE' },
          { Priority: 1, Type: 'NORMALIZE_PATH' },
        ],
      },
    });
    const label = (name: string) => ({
      LabelMatchStatement: { Scope: 'LABEL', Key: `awswaf:managed:aws:core-rule-set:${name}` },
    });

    it('counts the RFI and query-size rules in the group, then blocks on their labels outside the sign-in paths', () => {
      const stack = newStack();
      const firewall = new ApiFirewall(stack, 'Firewall', { authorizationBridge: true });
      const rules = rulesOf(Template.fromStack(stack));
      expect(rules.map((r) => [r.Priority, r.Name])).toEqual([
        [0, 'RateLimitPerIp'],
        [1, 'AWSManagedRulesAmazonIpReputationList'],
        [2, 'AWSManagedRulesCommonRuleSet'],
        [3, 'CommonRuleSetRfiOutsideOAuth'],
        [4, 'CommonRuleSetQueryStringSizeOutsideOAuth'],
        [5, 'AWSManagedRulesKnownBadInputsRuleSet'],
      ]);
      expect(rules[2]!.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual(
        [
          'SizeRestrictions_BODY',
          'GenericRFI_QUERYARGUMENTS',
          'GenericRFI_BODY',
          'SizeRestrictions_QUERYSTRING',
        ].map((rule) => ({ Name: rule, ActionToUse: { Count: {} } })),
      );
      expect(firewall.exemptedRules).toEqual([
        'GenericRFI_QUERYARGUMENTS',
        'GenericRFI_BODY',
        'SizeRestrictions_QUERYSTRING',
      ]);
      // Loopback redirect URIs (RFC 8252) pass on every bridge route; a URL in any other request is blocked.
      expect(rules[3]).toMatchObject({
        Action: { Block: {} },
        VisibilityConfig: { MetricName: 'CommonRuleSetRfiOutsideOAuth' },
        Statement: {
          AndStatement: {
            Statements: [
              { OrStatement: { Statements: [label('GenericRFI_QueryArguments'), label('GenericRFI_Body')] } },
              { NotStatement: { Statement: decodedPath('/oauth/') } },
            ],
          },
        },
      });
      // A query over 2,048 bytes passes only on the authorize and callback legs, which the bridge caps itself.
      expect(rules[4]).toMatchObject({
        Action: { Block: {} },
        Statement: {
          AndStatement: {
            Statements: [
              label('SizeRestrictions_QueryString'),
              {
                NotStatement: {
                  Statement: {
                    OrStatement: {
                      Statements: [decodedPath('/oauth/authorize'), decodedPath('/oauth/callback')],
                    },
                  },
                },
              },
            ],
          },
        },
      });
      expect(BRIDGE_EXEMPTIONS.flatMap((e) => e.rules).every((r) => COMMON_RULE_SET_RULES.includes(r))).toBe(
        true,
      );
    });

    it('exempts from the RFI rule every bridge endpoint whose form may carry a URL (a CIMD client_id at token and revoke)', () => {
      const [prefix] = BRIDGE_EXEMPTIONS[0].exemptPathPrefixes;
      for (const path of [
        BRIDGE_PATHS.token,
        BRIDGE_PATHS.revoke,
        BRIDGE_PATHS.register,
        BRIDGE_PATHS.authorize,
      ])
        expect(path.startsWith(prefix)).toBe(true);
    });

    it('needs no exemption for a rule already counted everywhere', () => {
      const stack = newStack();
      const firewall = new ApiFirewall(stack, 'Firewall', {
        authorizationBridge: true,
        countOnlyRules: [...COMMON_RULE_SET_BODY_RULES, 'SizeRestrictions_QUERYSTRING'],
      });
      const rules = rulesOf(Template.fromStack(stack));
      expect(firewall.exemptedRules).toEqual(['GenericRFI_QUERYARGUMENTS']);
      const rfi = rules.find((r) => r.Name === 'CommonRuleSetRfiOutsideOAuth');
      expect(rfi!.Statement.AndStatement.Statements[0]).toEqual(label('GenericRFI_QueryArguments'));
      expect(rules.find((r) => r.Name === 'CommonRuleSetQueryStringSizeOutsideOAuth')).toBeUndefined();
    });

    it('leaves the web ACL as it was without the bridge', () => {
      const stack = newStack();
      expect(new ApiFirewall(stack, 'Firewall', { authorizationBridge: false }).exemptedRules).toEqual([]);
      expect(rulesOf(Template.fromStack(stack)).map((r) => r.Name)).not.toContain(
        'CommonRuleSetRfiOutsideOAuth',
      );
    });
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
