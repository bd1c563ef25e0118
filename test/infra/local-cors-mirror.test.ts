import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { McpHttpApi, McpRestApi } from '@mcp-lambda/cdk';
import { gatewayPreflight, localGatewayCors } from '@mcp-lambda/dev';
import { metadataPaths } from '@mcp-lambda/server/auth';
import { newStack, only, type Resource } from '@mcp-lambda/cdk/testing';

// `npm start` emulates API Gateway's CORS from MCP_ALLOWED_ORIGINS; the stack configures it from the same setting.
// For one origin, both must answer a browser's preflight alike.

const ORIGIN = 'https://app.example.com';
const RESOURCE = 'http://127.0.0.1:3000/mcp';
const browser = (path: string) => ({
  method: 'OPTIONS',
  path,
  headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
});

function stackWith<T>(build: (stack: ReturnType<typeof newStack>, handler: lambda.IFunction) => T) {
  const stack = newStack();
  const handler = new lambda.Function(stack, 'Handler', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('export const handler = async () => ({ statusCode: 200 });'),
  });
  build(stack, handler);
  return Template.fromStack(stack);
}

describe.each([
  ['an open endpoint', false],
  ['an endpoint with OAuth metadata', true],
])('the local HTTP API preflight mirrors McpHttpApi for %s', (_name, oauth) => {
  it('same methods, headers and max age', () => {
    const template = stackWith((stack, handler) => {
      new McpHttpApi(stack, 'Api', {
        handler,
        allowedOrigins: [ORIGIN],
        ...(oauth ? { metadataPaths: metadataPaths(RESOURCE) } : {}),
      });
    });
    const [, api] = only(template, 'AWS::ApiGatewayV2::Api');
    const deployed = api.Properties.CorsConfiguration;
    const config = { allowedOrigins: [ORIGIN], mcpPath: '/mcp', auth: { mode: 'none' as const } };
    const local = gatewayPreflight(browser('/mcp'), localGatewayCors('http', config, oauth))!;
    expect(local.headers).toEqual({
      'access-control-allow-origin': deployed.AllowOrigins[0],
      'access-control-allow-methods': deployed.AllowMethods.join(','),
      'access-control-allow-headers': deployed.AllowHeaders.join(','),
      'access-control-max-age': String(deployed.MaxAge),
    });
  });
});

describe('the local REST API preflight mirrors McpRestApi', () => {
  it("each OPTIONS method's headers, path by path", () => {
    const template = stackWith((stack, handler) => {
      new McpRestApi(stack, 'Api', {
        handler,
        allowedOrigins: [ORIGIN],
        metadataPaths: metadataPaths(RESOURCE),
      });
    });
    const resources = template.toJSON().Resources as Record<string, Resource>;
    const pathOf = (ref: unknown): string => {
      const id = (ref as { Ref?: string }).Ref;
      if (!id) return '';
      return `${pathOf(resources[id]!.Properties.ParentId)}/${resources[id]!.Properties.PathPart}`;
    };
    const oauth = { mode: 'oauth', issuer: 'https://login.example.com', resource: RESOURCE } as never;
    const cors = localGatewayCors(
      'rest-streaming',
      { allowedOrigins: [ORIGIN], mcpPath: '/mcp', auth: oauth },
      false,
    );
    const preflights = Object.values(resources).filter(
      (r) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.HttpMethod === 'OPTIONS',
    );
    expect(preflights.map((m) => pathOf(m.Properties.ResourceId)).sort()).toEqual(
      Object.keys((cors as { routes: object }).routes).sort(),
    );
    for (const method of preflights) {
      const path = pathOf(method.Properties.ResourceId);
      const [response] = method.Properties.Integration.IntegrationResponses;
      const deployed = Object.fromEntries(
        Object.entries(response.ResponseParameters as Record<string, string>).map(([name, value]) => [
          name.replace('method.response.header.', '').toLowerCase(),
          value.slice(1, -1),
        ]),
      );
      const local = gatewayPreflight(browser(path), cors)!;
      expect(Number(response.StatusCode), path).toBe(local.status);
      expect(local.headers, path).toEqual(deployed);
    }
  });
});
