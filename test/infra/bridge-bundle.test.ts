/**
 * The deployed authorization bridge bundle, run for real: built with the stack's esbuild settings, given only the
 * AWS SDK the Lambda runtime provides, configured through the same variables the construct sets, and pointed at
 * local stand-ins for its AWS services: DynamoDB (dynalite), KMS and Secrets Manager (packages/dev/src/testing/fake-aws.ts),
 * with the embedded OpenID provider as the upstream sign-in. A whole sign-in, token exchange, refresh and code
 * replay go through it.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, FUNCTION_ENTRIES } from '@mcp-lambda/cdk/bundling';
import {
  startLocalServer,
  type LambdaHttpHandler,
  startLocalOidcProvider,
  type LocalOidcProvider,
} from '@mcp-lambda/dev';
import {
  startLocalDynamo,
  type LocalDynamo,
  startFakeAws,
  type FakeAws,
  browse,
  pkce,
} from '@mcp-lambda/dev/testing';

const ROOT = new URL('../../', import.meta.url).pathname;
const ARN = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:';
const KEY = 'arn:aws:kms:us-east-1:111122223333:key/11111111-2222-3333-4444-555555555555';
const PASSWORD = 'bundle-test-password';
const REDIRECT = 'http://127.0.0.1:43111/callback';

let outdir: string;
let dynamo: LocalDynamo;
let aws: FakeAws;
let upstream: LocalOidcProvider;
let local: { url: string; close(): Promise<void> };
let importMs: number;
let bundleBytes: number;
let handler: LambdaHttpHandler = async () => ({ statusCode: 503, body: '' });

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'bridge-bundle-'));
  const file = join(outdir, 'bridge', 'index.mjs');
  await build({
    ...esbuildOptions(join(ROOT, FUNCTION_ENTRIES.authorization), join(outdir, 'bridge')),
    absWorkingDir: ROOT,
  });
  bundleBytes = statSync(file).size;
  // The Lambda runtime provides the AWS SDK v3 and nothing else.
  mkdirSync(join(outdir, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules/@aws-sdk'), join(outdir, 'node_modules/@aws-sdk'), 'dir');

  dynamo = await startLocalDynamo('bridge-bundle');
  local = await startLocalServer({ handler: (e, c) => handler(e, c), port: 0 });
  upstream = await startLocalOidcProvider({ callbackUrl: `${local.url}/oauth/callback`, password: PASSWORD });
  aws = await startFakeAws({ [`${ARN}sealing`]: 's'.repeat(64), [`${ARN}upstream`]: upstream.clientSecret });
  Object.assign(process.env, {
    BRIDGE_ISSUER: local.url,
    BRIDGE_RESOURCE: `${local.url}/mcp`,
    BRIDGE_RESOURCE_NAME: 'bundle test',
    BRIDGE_SCOPES: 'mcp',
    BRIDGE_UPSTREAM_ISSUER: upstream.issuer,
    BRIDGE_UPSTREAM_CLIENT_ID: upstream.clientId,
    BRIDGE_UPSTREAM_CLIENT_SECRET_ARN: `${ARN}upstream`,
    BRIDGE_SEALING_SECRET_ARN: `${ARN}sealing`,
    BRIDGE_SIGNING_KEY_ID: KEY,
    BRIDGE_TABLE: dynamo.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_KMS: aws.endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  });
  const started = performance.now();
  const bundle = (await import(pathToFileURL(file).href)) as { handler: LambdaHttpHandler };
  importMs = Math.round(performance.now() - started);
  handler = bundle.handler;
}, 60_000);

afterAll(async () => {
  await local?.close();
  await upstream?.close();
  await aws?.close();
  await dynamo?.close();
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

const token = async (form: Record<string, string>) => {
  const res = await fetch(`${local.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

describe('the bundled authorization bridge', () => {
  it('is one small module that imports in well under a second', () => {
    console.info(`bridge bundle: ${bundleBytes} bytes minified; import ${importMs} ms`);
    expect(bundleBytes).toBeLessThan(256 * 1024);
  });

  it('serves its metadata and the public half of the KMS key', async () => {
    const metadata = await (await fetch(`${local.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({ issuer: local.url, code_challenge_methods_supported: ['S256'] });
    const jwks = (await (await fetch(`${local.url}/oauth/jwks`)).json()) as {
      keys: Record<string, string>[];
    };
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256' })]);
  });

  it('answers REST API (payload 1.0) events too, as the streaming REST API behind a custom domain delivers them', async () => {
    const rest = handler as unknown as (event: unknown, context: unknown) => Promise<Record<string, any>>;
    const context = { awsRequestId: 'rest-1', getRemainingTimeInMillis: () => 10_000 };
    const event = (
      method: string,
      path: string,
      init: { query?: Record<string, string>; body?: string } = {},
    ) => ({
      resource: path,
      path,
      httpMethod: method,
      headers: { Host: new URL(local.url).host, 'Content-Type': 'application/json' },
      multiValueHeaders: {},
      queryStringParameters: init.query ?? null,
      multiValueQueryStringParameters: init.query
        ? Object.fromEntries(Object.entries(init.query).map(([k, v]) => [k, [v]]))
        : null,
      pathParameters: null,
      stageVariables: null,
      requestContext: { stage: 'prod', httpMethod: method, path, requestId: 'r' },
      body: init.body ?? null,
      isBase64Encoded: false,
    });
    const metadata = await rest(event('GET', '/.well-known/oauth-authorization-server'), context);
    expect(metadata.statusCode).toBe(200);
    expect(JSON.parse(metadata.body)).toMatchObject({ issuer: local.url });
    const registered = await rest(
      event('POST', '/oauth/register', {
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
      }),
      context,
    );
    const { client_id: clientId } = JSON.parse(registered.body) as { client_id: string };
    const authorize = await rest(
      event('GET', '/oauth/authorize', {
        query: {
          response_type: 'code',
          client_id: clientId,
          redirect_uri: REDIRECT,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          state: 'rest',
        },
      }),
      context,
    );
    // The consent page, and the cookie binding the sign-in to this browser as its own Set-Cookie header.
    expect(authorize.statusCode).toBe(200);
    expect(authorize.multiValueHeaders['set-cookie']).toEqual([expect.stringMatching(/HttpOnly/)]);
    expect(authorize.cookies).toBeUndefined();
  });

  it('signs someone in through the upstream, issues KMS-signed tokens, rotates, and revokes on code replay', async () => {
    const reg = await fetch(`${local.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    });
    const { client_id: clientId } = (await reg.json()) as { client_id: string };
    const { verifier, challenge } = pkce();
    const url = new URL(`${local.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'bundle',
    }).toString();
    const { callback } = await browse(url.href, {
      until: REDIRECT,
      email: upstream.user.email,
      password: PASSWORD,
    });
    const code = callback.searchParams.get('code')!;
    const form = {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    };
    const issued = await token(form);
    expect(issued.status).toBe(200);
    const { payload } = await jwtVerify(
      issued.json.access_token,
      createRemoteJWKSet(new URL(`${local.url}/oauth/jwks`)),
      {
        issuer: local.url,
        audience: `${local.url}/mcp`,
        algorithms: ['ES256'],
      },
    );
    expect(payload).toMatchObject({ sub: 'dev-user', scope: 'mcp', client_id: clientId });

    const rotated = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: issued.json.refresh_token,
    });
    expect(rotated.status).toBe(200);
    expect((await token(form)).json.error).toBe('invalid_grant');
    // The replayed code revoked its family, the rotated token included.
    const after = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: rotated.json.refresh_token,
    });
    expect(after.json.error).toBe('invalid_grant');
    // The public key was read once; every token is one Sign; both secrets were read once.
    expect(aws.calls.filter((c) => c === 'TrentService.GetPublicKey')).toHaveLength(1);
    expect(aws.calls.filter((c) => c === 'TrentService.Sign')).toHaveLength(2);
    expect(aws.calls.filter((c) => c === 'secretsmanager.GetSecretValue')).toHaveLength(2);
  });
});
