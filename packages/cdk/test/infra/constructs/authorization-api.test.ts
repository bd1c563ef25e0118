import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { AuthorizationApi, type AuthorizationApiProps } from '../../../src/authorization-api.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { only } from '../../../src/testing/template.ts';

/** An AuthorizationApi in a fresh stack, and its template. */
function build(props: AuthorizationApiProps = {}) {
  const stack = newStack();
  const api = new AuthorizationApi(stack, 'Authorization', props);
  return { stack, api, template: Template.fromStack(stack) };
}

describe('AuthorizationApi', () => {
  it('is an HTTP API whose $default stage serves the root of its origin, which an issuer needs', () => {
    const { template, api, stack } = build();
    const [apiId, resource] = only(template, 'AWS::ApiGatewayV2::Api');
    expect(resource.Properties.ProtocolType).toBe('HTTP');
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', AutoDeploy: true });
    expect(JSON.stringify(stack.resolve(api.url))).toContain(apiId);
    template.resourceCountIs('AWS::ApiGatewayV2::Route', 0);
  });

  it('throttles at 50 requests per second, burst 100, unless told otherwise', () => {
    const [, stage] = only(build().template, 'AWS::ApiGatewayV2::Stage');
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: 50,
      ThrottlingBurstLimit: 100,
    });
    const [, set] = only(
      build({ throttleRateLimit: 5, throttleBurstLimit: 10 }).template,
      'AWS::ApiGatewayV2::Stage',
    );
    expect(set.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: 5,
      ThrottlingBurstLimit: 10,
    });
  });

  it('writes one JSON access-log line per request to its own log group', () => {
    const { template } = build({
      accessLogRetention: RetentionDays.ONE_WEEK,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const [, stage] = only(template, 'AWS::ApiGatewayV2::Stage');
    expect(JSON.parse(stage.Properties.AccessLogSettings.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
    });
    const [logsId, logGroup] = only(template, 'AWS::Logs::LogGroup');
    expect(stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0]).toBe(logsId);
    expect(logGroup).toMatchObject({ Properties: { RetentionInDays: 7 }, DeletionPolicy: 'Retain' });
  });

  it.each<[string, AuthorizationApiProps, RegExp]>([
    ['a zero rate limit', { throttleRateLimit: 0 }, /throttleRateLimit must be/],
    ['a fractional burst limit', { throttleBurstLimit: 1.5 }, /throttleBurstLimit must be/],
  ])('refuses %s and names the setting', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });
});
