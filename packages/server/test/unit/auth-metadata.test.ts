import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { readBearer } from '../../src/auth/bearer.ts';
import { bearerChallenge } from '../../src/auth/challenge.ts';
import { buildProtectedResourceMetadata, metadataPaths, metadataUrl } from '../../src/auth/metadata.ts';
import { grantedScopes, missingScopes } from '../../src/auth/scopes.ts';

/**
 * RFC 9728 §2 as a schema: `resource` is REQUIRED; the other members, when present, have these types. MCP adds that
 * `authorization_servers` lists at least one server.
 */
const RFC_9728_DOCUMENT = {
  type: 'object',
  required: ['resource', 'authorization_servers'],
  properties: {
    resource: { type: 'string', pattern: '^https://[^#?]+$' },
    authorization_servers: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^https://' } },
    jwks_uri: { type: 'string' },
    scopes_supported: {
      type: 'array',
      items: { type: 'string', pattern: '^[\\x21\\x23-\\x5b\\x5d-\\x7e]+$' },
    },
    bearer_methods_supported: { type: 'array', items: { enum: ['header', 'body', 'query'] } },
    resource_signing_alg_values_supported: {
      type: 'array',
      items: { type: 'string', not: { const: 'none' } },
    },
    resource_name: { type: 'string' },
    resource_documentation: { type: 'string' },
    resource_policy_uri: { type: 'string' },
    resource_tos_uri: { type: 'string' },
    tls_client_certificate_bound_access_tokens: { type: 'boolean' },
    authorization_details_types_supported: { type: 'array', items: { type: 'string' } },
    dpop_signing_alg_values_supported: { type: 'array', items: { type: 'string' } },
    dpop_bound_access_tokens_required: { type: 'boolean' },
  },
};
const validate = new Ajv2020({ allErrors: true }).compile(RFC_9728_DOCUMENT);

describe('protected resource metadata (RFC 9728)', () => {
  const document = buildProtectedResourceMetadata({
    resource: 'https://mcp.example.com/mcp',
    authorizationServers: ['https://auth.example.com'],
    scopesSupported: ['mcp', 'reports:read'],
    resourceName: 'Example MCP server',
  });

  it('validates against the fields RFC 9728 defines, with every required one present', () => {
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
  });

  it('says tokens travel only in the Authorization header', () => {
    expect(document).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['mcp', 'reports:read'],
      bearer_methods_supported: ['header'],
      resource_name: 'Example MCP server',
    });
  });

  it('refuses to build a document without an authorization server', () => {
    expect(() =>
      buildProtectedResourceMetadata({ resource: 'https://mcp.example.com/mcp', authorizationServers: [] }),
    ).toThrow(/at least one authorization server/);
  });

  it.each([
    {
      resource: 'https://mcp.example.com/mcp',
      paths: ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'],
      url: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    },
    {
      resource: 'https://mcp.example.com/v1/mcp/',
      paths: ['/.well-known/oauth-protected-resource/v1/mcp', '/.well-known/oauth-protected-resource'],
      url: 'https://mcp.example.com/.well-known/oauth-protected-resource/v1/mcp',
    },
    {
      resource: 'https://mcp.example.com',
      paths: ['/.well-known/oauth-protected-resource'],
      url: 'https://mcp.example.com/.well-known/oauth-protected-resource',
    },
  ])(
    'serves the document for $resource at the RFC 9728 §3.1 path and the root path',
    ({ resource, paths, url }) => {
      expect(metadataPaths(resource)).toEqual(paths);
      expect(metadataUrl(resource)).toBe(url);
    },
  );
});

describe('Bearer challenges (RFC 6750 §3, RFC 9728 §5.1)', () => {
  const resourceMetadata = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
  it.each([
    {
      name: 'a request without a token gets no error code',
      params: { scopes: ['mcp'], resourceMetadata },
      header: `Bearer scope="mcp", resource_metadata="${resourceMetadata}"`,
    },
    {
      name: 'an invalid token gets invalid_token with a description',
      params: {
        error: 'invalid_token' as const,
        description: 'The access token has expired',
        resourceMetadata,
      },
      header: `Bearer error="invalid_token", error_description="The access token has expired", resource_metadata="${resourceMetadata}"`,
    },
    {
      name: 'a missing scope gets insufficient_scope and the scopes needed',
      params: { error: 'insufficient_scope' as const, scopes: ['mcp', 'reports:read'], resourceMetadata },
      header: `Bearer error="insufficient_scope", scope="mcp reports:read", resource_metadata="${resourceMetadata}"`,
    },
    {
      name: 'quotes and backslashes never reach the header',
      params: { error: 'invalid_token' as const, description: 'bad "quoted" \\ text\n', resourceMetadata },
      header: `Bearer error="invalid_token", error_description="bad quoted  text", resource_metadata="${resourceMetadata}"`,
    },
  ])('$name', ({ params, header }) => {
    expect(bearerChallenge(params)).toBe(header);
  });
});

describe('reading the bearer token (RFC 6750 §2.1)', () => {
  it.each([
    { header: undefined, kind: 'absent' },
    { header: 'Basic dXNlcjpwYXNz', kind: 'absent' },
    { header: 'Bearer', kind: 'malformed' },
    { header: 'Bearer ', kind: 'malformed' },
    { header: 'Bearer a b', kind: 'malformed' },
    { header: 'Bearer a,Bearer b', kind: 'malformed' },
    { header: 'Bearer abc.DEF-_~+/=', kind: 'token', token: 'abc.DEF-_~+/=' },
    { header: 'bearer   abc', kind: 'token', token: 'abc' },
    { header: 'Bearer\tabc', kind: 'absent' },
    { header: 'Bearer abc\n', kind: 'token', token: 'abc' },
    { header: 'Bearer ab\ncd', kind: 'malformed' },
  ])('reads $header as $kind', ({ header, kind, token }) => {
    expect(readBearer(header)).toEqual(token === undefined ? { kind } : { kind, token });
  });

  // A quadratic reading takes about 0.7 s on 16 k spaces, so on a million it would run for about an hour: this
  // test finishing within its timeout shows the reading is linear, with no timed assertion.
  it.each([16 * 1024, 64 * 1024, 1024 * 1024])(
    'reads a header with %i spaces before a line break at once (no quadratic backtracking)',
    (spaces) => {
      expect(readBearer(`Bearer${' '.repeat(spaces)}\nx`)).toEqual({ kind: 'malformed' });
      expect(readBearer(`Bearer ${'a'.repeat(spaces)}${'='.repeat(spaces)}!`)).toEqual({ kind: 'malformed' });
      expect(readBearer(`x${' '.repeat(spaces)}\ny`)).toEqual({ kind: 'absent' });
    },
  );
});

describe('scopes', () => {
  it.each([
    { claims: { scope: 'a b  c' }, scopes: ['a', 'b', 'c'] },
    { claims: { scp: ['a', 'b'] }, scopes: ['a', 'b'] },
    { claims: { scp: 'a b' }, scopes: ['a', 'b'] },
    { claims: { scope: 'a', scp: ['b'] }, scopes: ['a'] },
    { claims: { scope: 42 }, scopes: [] },
    { claims: { scp: ['a', 7, 'a b', 'a'] }, scopes: ['a'] },
    { claims: {}, scopes: [] },
  ])('grants $scopes for $claims', ({ claims, scopes }) => {
    expect(grantedScopes(claims)).toEqual(scopes);
  });

  it('lists the required scopes a grant lacks, in the order required', () => {
    expect(missingScopes(['a', 'c'], ['c', 'b', 'a', 'd'])).toEqual(['b', 'd']);
    expect(missingScopes(['a'], [])).toEqual([]);
  });
});
