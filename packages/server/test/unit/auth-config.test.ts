import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

const OAUTH = {
  MCP_AUTH_MODE: 'oauth',
  MCP_AUTH_ISSUER: 'https://auth.example.com/tenant',
  MCP_AUTH_RESOURCE: 'https://mcp.example.com/mcp',
};

describe('authorization configuration', () => {
  it('is off by default (local development)', () => {
    expect(loadConfig({}).auth).toEqual({ mode: 'none' });
  });

  it('reads an oauth configuration with the resource as the default audience', () => {
    expect(loadConfig(OAUTH).auth).toEqual({
      mode: 'oauth',
      issuer: 'https://auth.example.com/tenant',
      resource: 'https://mcp.example.com/mcp',
      audiences: ['https://mcp.example.com/mcp'],
      requiredScopes: [],
      jwksUrl: undefined,
      algorithms: undefined,
      maxTokenLifetimeSeconds: 86_400,
      metadataUrl: undefined,
    });
  });

  it('reads every oauth variable', () => {
    const auth = loadConfig({
      ...OAUTH,
      MCP_AUTH_AUDIENCE: 'https://mcp.example.com/mcp, api://mcp',
      MCP_AUTH_REQUIRED_SCOPES: 'mcp:tools, mcp:read mcp:tools',
      MCP_AUTH_JWKS_URL: 'https://auth.example.com/tenant/keys',
      MCP_AUTH_ALGORITHMS: 'RS256,ES256',
      MCP_AUTH_MAX_TOKEN_LIFETIME_SECONDS: '3600',
      MCP_AUTH_METADATA_URL: 'https://api.example.com/prod/.well-known/oauth-protected-resource/prod/mcp',
    }).auth;
    expect(auth).toEqual({
      mode: 'oauth',
      issuer: 'https://auth.example.com/tenant',
      resource: 'https://mcp.example.com/mcp',
      audiences: ['https://mcp.example.com/mcp', 'api://mcp'],
      requiredScopes: ['mcp:tools', 'mcp:read'],
      jwksUrl: 'https://auth.example.com/tenant/keys',
      algorithms: ['RS256', 'ES256'],
      maxTokenLifetimeSeconds: 3600,
      metadataUrl: 'https://api.example.com/prod/.well-known/oauth-protected-resource/prod/mcp',
    });
  });

  it.each([
    {
      name: 'an unknown mode',
      env: { MCP_AUTH_MODE: 'jwt' },
      error: /MCP_AUTH_MODE must be "none" or "oauth"/,
    },
    {
      name: 'an issuer without oauth mode (half a configuration must not leave the server open)',
      env: { MCP_AUTH_ISSUER: 'https://auth.example.com' },
      error: /MCP_AUTH_ISSUER is set but MCP_AUTH_MODE is not "oauth"/,
    },
    {
      name: 'a maximum token lifetime under a minute',
      env: { ...OAUTH, MCP_AUTH_MAX_TOKEN_LIFETIME_SECONDS: '10' },
      error: /MCP_AUTH_MAX_TOKEN_LIFETIME_SECONDS must be an integer from 60/,
    },
    {
      name: 'oauth without an issuer',
      env: { ...OAUTH, MCP_AUTH_ISSUER: '' },
      error: /needs MCP_AUTH_ISSUER/,
    },
    {
      name: 'oauth without a resource',
      env: { ...OAUTH, MCP_AUTH_RESOURCE: '' },
      error: /needs MCP_AUTH_RESOURCE/,
    },
    {
      name: 'a plain-http issuer off loopback',
      env: { ...OAUTH, MCP_AUTH_ISSUER: 'http://auth.example.com' },
      error: /MCP_AUTH_ISSUER must be an https URL/,
    },
    {
      name: 'a resource with a fragment',
      env: { ...OAUTH, MCP_AUTH_RESOURCE: 'https://mcp.example.com/mcp#x' },
      error: /MCP_AUTH_RESOURCE must be an https URL/,
    },
    {
      name: 'a scope with a quote',
      env: { ...OAUTH, MCP_AUTH_REQUIRED_SCOPES: 'mcp "x"' },
      error: /MCP_AUTH_REQUIRED_SCOPES has an invalid scope/,
    },
  ])('refuses $name', ({ env, error }) => {
    expect(() => loadConfig(env)).toThrow(error);
  });
});
