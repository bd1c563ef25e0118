/**
 * The authorization bridge's function with BRIDGE_TRACING=on: a server span per request by the HTTP conventions,
 * named by the bridge's own route only, with a client span per AWS call under it, all sent to an OTLP receiver
 * before each invocation returns; Lambda's sampled trace is the parent; nothing a client sent (a query, a code, a
 * made-up path) is recorded. DynamoDB, KMS and Secrets Manager are the local stand-ins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LambdaHttpHandler } from '@mcp-lambda/dev';
import {
  startFakeAws,
  startLocalDynamo,
  startOtlpReceiver,
  type FakeAws,
  type LocalDynamo,
  type OtlpReceiver,
} from '@mcp-lambda/dev/testing';
import { createAuthorizationFunction } from '../../src/index.ts';

const ARN = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:';
const KEY = 'arn:aws:kms:us-east-1:111122223333:key/11111111-2222-3333-4444-555555555555';
const LAMBDA_TRACE = '5759e988bd862e3fe1be46a994272793';
const LAMBDA_PARENT = '53995c3f42cd8ad8';

let dynamo: LocalDynamo;
let aws: FakeAws;
let receiver: OtlpReceiver;
let local: { url: string; close(): Promise<void> };
const saved = { ...process.env };

beforeAll(async () => {
  [dynamo, aws, receiver] = await Promise.all([
    startLocalDynamo('bridge-tracing'),
    startFakeAws({ [`${ARN}sealing`]: 's'.repeat(64), [`${ARN}upstream`]: 'upstream-secret' }),
    startOtlpReceiver(),
  ]);
  // The SDK clients read their endpoints and credentials from the process, as in Lambda.
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_KMS: aws.endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    // Lambda's own trace, sampled: the bridge's spans hang under its function segment.
    _X_AMZN_TRACE_ID: `Root=1-${LAMBDA_TRACE.slice(0, 8)}-${LAMBDA_TRACE.slice(8)};Parent=${LAMBDA_PARENT};Sampled=1`,
  });
  let handler: LambdaHttpHandler = async () => ({ statusCode: 503, body: '' });
  local = await startLocalServer({ handler: (event, context) => handler(event, context), port: 0 });
  handler = await createAuthorizationFunction({
    env: {
      BRIDGE_ISSUER: local.url,
      BRIDGE_RESOURCE: `${local.url}/mcp`,
      BRIDGE_UPSTREAM_ISSUER: 'https://login.example.com',
      BRIDGE_UPSTREAM_CLIENT_ID: 'client',
      BRIDGE_UPSTREAM_CLIENT_SECRET_ARN: `${ARN}upstream`,
      BRIDGE_SEALING_SECRET_ARN: `${ARN}sealing`,
      BRIDGE_SIGNING_KEY_ID: KEY,
      BRIDGE_TABLE: dynamo.tableName,
      BRIDGE_TRACING: 'on',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    },
  });
}, 60_000);

afterAll(async () => {
  await local?.close();
  await Promise.allSettled([receiver?.close(), aws?.close(), dynamo?.close()]);
  process.env = { ...saved };
});

describe('the traced authorization bridge', () => {
  it('sends a server span per request, named by its route, with its AWS calls as client spans under it', async () => {
    expect((await fetch(`${local.url}/oauth/jwks`)).status).toBe(200);
    // Sent before the invocation returned: no waiting for a timer.
    const spans = [...receiver.spans];
    const request = spans.find((s) => s.name === 'GET /oauth/jwks');
    expect(request).toMatchObject({
      kind: 2,
      traceId: LAMBDA_TRACE,
      parentSpanId: LAMBDA_PARENT,
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/oauth/jwks',
        'http.response.status_code': 200,
      },
      resource: expect.objectContaining({ 'service.name': 'mcp-authorization-bridge' }),
    });
    const calls = spans.filter((s) => s.parentSpanId === request!.spanId).map((s) => s.name);
    expect(calls).toEqual(expect.arrayContaining(['SecretsManager.GetSecretValue', 'KMS.GetPublicKey']));
    for (const call of spans.filter((s) => s.parentSpanId === request!.spanId)) expect(call.kind).toBe(3);
  });

  it('never names a path of its own making, nor records a query, a code or a form field', async () => {
    const before = receiver.spans.length;
    await fetch(`${local.url}/made-up/capability-123?code=code-456&state=state-789`);
    await fetch(`${local.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'code-abc',
        code_verifier: 'verifier-def',
        client_id: 'client-ghi',
        redirect_uri: 'http://127.0.0.1:1/cb',
      }).toString(),
    });
    await fetch(`${local.url}/oauth/jwks`, { method: 'BREW' }).catch(() => undefined);
    const spans = receiver.spans.slice(before);
    const names = spans.filter((s) => s.kind === 2).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['GET', 'POST /oauth/token']));
    expect(names.every((name) => /^(GET|POST|_OTHER)( \/oauth\/(token|jwks))?$/.test(name))).toBe(true);
    const recorded = JSON.stringify(spans.map((s) => [s.name, s.attributes]));
    for (const secret of [
      'capability-123',
      'code-456',
      'state-789',
      'code-abc',
      'verifier-def',
      'client-ghi',
      'BREW',
    ])
      expect(recorded).not.toContain(secret);
  });
});
