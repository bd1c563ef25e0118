import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as rest from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { describe, expect, it } from 'vitest';
import { ApiDomain, type ApiDomainProps } from '../../../src/api-domain.ts';
import { CDK_JSON_CONTEXT, newStack } from '../../../src/testing/synth.ts';
import { only } from '../../../src/testing/template.ts';

const ZONE = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', zoneName: 'example.com' };
const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/0b6a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';

function build(props: Partial<ApiDomainProps> = {}, stack: Stack = newStack()) {
  const domain = new ApiDomain(stack, 'Domain', {
    domainName: 'mcp.example.com',
    hostedZone: ZONE,
    ...props,
  });
  return { stack, domain };
}

describe('ApiDomain', () => {
  it('with a hosted zone: a DNS-validated certificate, a regional TLS 1.2 domain and an alias record to it', () => {
    const { stack, domain } = build();
    const template = Template.fromStack(stack);
    const [certificateId] = only(template, 'AWS::CertificateManager::Certificate', {
      DomainName: 'mcp.example.com',
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: 'mcp.example.com', HostedZoneId: ZONE.hostedZoneId }],
    });
    const [domainId] = only(template, 'AWS::ApiGatewayV2::DomainName', {
      DomainName: 'mcp.example.com',
      DomainNameConfigurations: [
        { CertificateArn: { Ref: certificateId }, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' },
      ],
    });
    only(template, 'AWS::Route53::RecordSet', {
      Name: 'mcp.example.com.',
      Type: 'A',
      HostedZoneId: ZONE.hostedZoneId,
      AliasTarget: {
        DNSName: { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] },
        HostedZoneId: { 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] },
      },
    });
    expect(domain.url).toBe('https://mcp.example.com');
  });

  it('with a certificate ARN and no zone: that certificate, and no DNS record (the name is pointed elsewhere)', () => {
    const { stack, domain } = build({ hostedZone: undefined, certificateArn: CERTIFICATE });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::CertificateManager::Certificate', 0);
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
    only(template, 'AWS::ApiGatewayV2::DomainName', {
      DomainNameConfigurations: [{ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL' }],
    });
    expect(domain.record).toBeUndefined();
  });

  it('with a certificate ARN and a zone: that certificate, and the alias record', () => {
    const { stack } = build({ certificateArn: CERTIFICATE });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::CertificateManager::Certificate', 0);
    template.resourceCountIs('AWS::Route53::RecordSet', 1);
  });

  it('maps an HTTP API stage at the root of the domain', () => {
    const { stack, domain } = build();
    const api = new apigw.HttpApi(stack, 'Api', { createDefaultStage: false });
    const stage = api.addStage('Stage', { stageName: 'prod', autoDeploy: true });
    domain.mapHttpApi(api, stage);
    const [, mapping] = only(Template.fromStack(stack), 'AWS::ApiGatewayV2::ApiMapping');
    expect(mapping.Properties.ApiMappingKey).toBeUndefined();
    expect(stack.resolve(mapping.Properties.ApiId)).toEqual(stack.resolve(api.apiId));
    expect(stack.resolve(mapping.Properties.Stage)).toEqual(stack.resolve(stage.stageName));
  });

  it('maps a REST API stage at the root with an API Gateway v2 mapping, after the stage exists', () => {
    const { stack, domain } = build();
    const api = new rest.RestApi(stack, 'Rest', { deployOptions: { stageName: 'prod' } });
    api.root.addMethod('GET', new rest.MockIntegration());
    domain.mapRestApi(api, api.deploymentStage);
    const template = Template.fromStack(stack);
    const [, mapping] = only(template, 'AWS::ApiGatewayV2::ApiMapping');
    expect(mapping.Properties.ApiMappingKey).toBeUndefined();
    expect(mapping.Properties.ApiId).toEqual({
      Ref: stack.getLogicalId(api.node.defaultChild as rest.CfnRestApi),
    });
    expect(stack.resolve(mapping.Properties.Stage)).toEqual(stack.resolve(api.deploymentStage.stageName));
    const [stageId] = only(template, 'AWS::ApiGateway::Stage');
    expect((mapping as { DependsOn?: string[] }).DependsOn).toContain(stageId);
  });

  it.each<[string, Partial<ApiDomainProps>, RegExp]>([
    ['an upper-case name', { domainName: 'MCP.example.com' }, /must be a lower-case DNS name/],
    ['a wildcard name', { domainName: '*.example.com' }, /must be a lower-case DNS name/],
    ['a single label', { domainName: 'localhost' }, /must be a lower-case DNS name/],
    ['no certificate and no zone', { hostedZone: undefined }, /needs a certificate: give certificateArn/],
    [
      'an ARN that is no ACM certificate',
      { certificateArn: 'arn:aws:iam::123456789012:role/x' },
      /not an ACM/,
    ],
    ['a zone id that is no Route 53 id', { hostedZone: { ...ZONE, hostedZoneId: 'example' } }, /zone id/],
    ['a name outside the zone', { domainName: 'mcp.example.org' }, /is not in the hosted zone example.com/],
  ])('refuses %s, before creating anything', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });

  it('refuses a certificate from another region than the stack’s, when the stack names its region', () => {
    const app = new App({ context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'InRegion', { env: { account: '123456789012', region: 'us-east-1' } });
    expect(() => build({ certificateArn: CERTIFICATE }, stack)).toThrow(
      /certificateArn is in eu-west-1, but a regional custom domain needs a certificate in the stack's region us-east-1/,
    );
  });
});
