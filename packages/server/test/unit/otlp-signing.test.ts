import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/log.ts';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { signV4 } from '../../src/telemetry/aws-signing.ts';
import { OtlpHttpExporter } from '../../src/telemetry/otlp-exporter.ts';
import { awsSigning, otlpSettings, type OtlpSettings } from '../../src/telemetry/otlp-settings.ts';

const KEY = 'AKIDEXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const TOKEN = 'session-token-for-the-test';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * Signature Version 4 checked from its definition, independently of the signer under test: the canonical request
 * from what arrived, the string to sign, the derived key, and the signature the `authorization` header carries.
 */
function verifySigV4(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) {
  const auth = String(headers.authorization);
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!match) throw new Error(`not a SigV4 authorization header: ${auth}`);
  const [, key, date, region, service, signedHeaders, signature] = match as unknown as string[];
  const names = signedHeaders!.split(';');
  const canonicalHeaders = names.map((name) => `${name}:${String(headers[name]).trim()}\n`).join('');
  const payloadHash = sha256(body);
  const canonical = [method, path, '', canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const amzDate = String(headers['x-amz-date']);
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, date!), region!), service!), 'aws4_request');
  return {
    key,
    region,
    service,
    names,
    valid: createHmac('sha256', signingKey).update(toSign).digest('hex') === signature,
  };
}

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function receiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, received, close: () => server.close() };
}

/** Two finished spans to export. */
function someSpans() {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  const tracer = provider.getTracer('test');
  tracer.startSpan('tools/call add').end();
  tracer.startSpan('execute_tool add').end();
  return memory.getFinishedSpans();
}

const exported = (exporter: OtlpHttpExporter) =>
  new Promise<ExportResult>((resolve) => exporter.export(someSpans(), resolve));

function warnings() {
  const seen: { message: string; fields: unknown }[] = [];
  const log: Logger = {
    debug() {},
    info() {},
    error() {},
    warn: (message, fields) => void seen.push({ message, fields }),
  };
  return { log, seen };
}

const saved = { ...process.env };
beforeEach(() => {
  // Only what the test sets: no profile, no instance role, no credentials from the machine running it.
  for (const name of Object.keys(process.env)) if (name.startsWith('AWS_')) delete process.env[name];
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  process.env.AWS_CONFIG_FILE = '/nonexistent/config';
  process.env.AWS_SHARED_CREDENTIALS_FILE = '/nonexistent/credentials';
});
afterEach(() => {
  process.env = { ...saved };
});

describe('exports to AWS endpoints are signed', () => {
  it('signs exactly as the AWS SDK signer does, path and query encodings included', async () => {
    const credentials = { accessKeyId: KEY, secretAccessKey: SECRET, sessionToken: TOKEN };
    const when = new Date('2026-11-28T09:08:07.654Z');
    for (const [address, withToken] of [
      ['https://xray.eu-west-1.amazonaws.com/v1/traces', true],
      ['https://xray.eu-west-1.amazonaws.com/v1/a%20b/c~d_e!f/traces?z=1&a=x%20y&a2=%C3%A9', false],
      ['https://xray.eu-west-1.amazonaws.com//v1//traces/', true],
      ['https://xray.eu-west-1.amazonaws.com', true],
    ] as const) {
      const url = new URL(address);
      const body = new TextEncoder().encode(`spans of ${address}`);
      const ours = signV4(
        { url, contentType: 'application/x-protobuf', body },
        { region: 'eu-west-1', service: 'xray' },
        withToken ? credentials : { accessKeyId: KEY, secretAccessKey: SECRET },
        when,
      );
      const theirs = await new SignatureV4({
        credentials: withToken ? credentials : { accessKeyId: KEY, secretAccessKey: SECRET },
        region: 'eu-west-1',
        service: 'xray',
        sha256: Sha256,
      }).sign(
        {
          method: 'POST',
          protocol: url.protocol,
          hostname: url.hostname,
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: { 'content-type': 'application/x-protobuf', host: url.host },
          body,
        },
        { signingDate: when },
      );
      expect(ours).toEqual(theirs.headers);
    }
  });

  it('recognises X-Ray OTLP endpoints only, in every partition, over https only', () => {
    expect(awsSigning('https://xray.eu-west-1.amazonaws.com/v1/traces')).toEqual({
      region: 'eu-west-1',
      service: 'xray',
    });
    expect(awsSigning('https://xray.cn-north-1.amazonaws.com.cn/v1/traces')?.region).toBe('cn-north-1');
    expect(awsSigning('https://xray-fips.us-gov-west-1.amazonaws.com/v1/traces')?.region).toBe(
      'us-gov-west-1',
    );
    for (const other of [
      'http://xray.eu-west-1.amazonaws.com/v1/traces',
      'https://xray.eu-west-1.amazonaws.com.evil.example/v1/traces',
      'https://logs.eu-west-1.amazonaws.com/v1/logs',
      'https://collector.example/v1/traces',
      'http://localhost:4318/v1/traces',
    ])
      expect(awsSigning(other)).toBeUndefined();
    expect(
      otlpSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://xray.us-east-1.amazonaws.com/v1/traces' }),
    ).toMatchObject({ signing: { region: 'us-east-1', service: 'xray' } });
    expect(otlpSettings({})).not.toHaveProperty('signing');
  });

  it('signs each export with the function role credentials, a signature that checks out byte for byte', async () => {
    process.env.AWS_ACCESS_KEY_ID = KEY;
    process.env.AWS_SECRET_ACCESS_KEY = SECRET;
    process.env.AWS_SESSION_TOKEN = TOKEN;
    const endpoint = await receiver();
    try {
      const settings: OtlpSettings = {
        ...otlpSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint.url }),
        headers: { 'x-extra': 'kept' },
        signing: { region: 'eu-central-1', service: 'xray' },
      };
      const { log, seen } = warnings();
      const exporter = new OtlpHttpExporter(settings, log);
      expect((await exported(exporter)).code).toBe(ExportResultCode.SUCCESS);
      expect((await exported(exporter)).code).toBe(ExportResultCode.SUCCESS);
      expect(seen).toEqual([]);
      expect(endpoint.received).toHaveLength(2);
      for (const { method, path, headers, body } of endpoint.received) {
        expect(headers['x-amz-security-token']).toBe(TOKEN);
        expect(headers['x-extra']).toBe('kept');
        const check = verifySigV4(method, path, headers, body);
        expect(check).toMatchObject({ key: KEY, region: 'eu-central-1', service: 'xray', valid: true });
        // The body and where it goes are signed, so neither can be swapped in transit.
        expect(check.names).toEqual(expect.arrayContaining(['host', 'content-type', 'x-amz-date']));
      }
    } finally {
      endpoint.close();
    }
  });

  it('without credentials sends nothing and fails the export, saying why, never the caller', async () => {
    const endpoint = await receiver();
    try {
      const settings: OtlpSettings = {
        ...otlpSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint.url }),
        signing: { region: 'eu-central-1', service: 'xray' },
      };
      const { log, seen } = warnings();
      const result = await exported(new OtlpHttpExporter(settings, log));
      expect(result.code).toBe(ExportResultCode.FAILED);
      expect(endpoint.received).toEqual([]);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.message).toBe('trace export failed');
      expect(JSON.stringify(seen[0]!.fields)).toMatch(/credential/i);
    } finally {
      endpoint.close();
    }
  });

  it('sends no authorization to an endpoint that is not AWS', async () => {
    process.env.AWS_ACCESS_KEY_ID = KEY;
    process.env.AWS_SECRET_ACCESS_KEY = SECRET;
    const endpoint = await receiver();
    try {
      const exporter = new OtlpHttpExporter(
        otlpSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint.url }),
        warnings().log,
      );
      expect((await exported(exporter)).code).toBe(ExportResultCode.SUCCESS);
      expect(endpoint.received[0]!.headers.authorization).toBeUndefined();
      expect(endpoint.received[0]!.headers['x-amz-date']).toBeUndefined();
    } finally {
      endpoint.close();
    }
  });
});
