import type { Env } from '../config-values.ts';
import { isSecureUrl } from '../auth/urls.ts';

/** Where and how spans are sent, from the standard `OTEL_*` variables (the traces-specific one wins). */
export interface OtlpSettings {
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  headers: Record<string, string>;
  /** One export's time limit, ms (`OTEL_EXPORTER_OTLP_TIMEOUT`, default 10,000); a flush also ends by the deadline. */
  timeoutMs: number;
  /** Set when the endpoint is AWS's own (X-Ray's OTLP endpoint): each export is signed with Signature Version 4. */
  signing?: AwsSigning;
}

/** The region and service an export to an AWS endpoint is signed for. */
export interface AwsSigning {
  region: string;
  service: string;
}

/** X-Ray's OTLP endpoints: `xray.<region>.amazonaws.com` (FIPS and China hosts too), always https. */
const XRAY_HOST = /^xray(?:-fips)?\.([a-z]{2}(?:-[a-z]+)+-\d+)\.amazonaws\.com(?:\.cn)?$/;

/** How exports to `url` are signed: X-Ray's OTLP endpoint takes Signature Version 4 only; others take none. */
export function awsSigning(url: string): AwsSigning | undefined {
  const { protocol, hostname } = new URL(url);
  const region = protocol === 'https:' ? XRAY_HOST.exec(hostname)?.[1] : undefined;
  return region ? { region, service: 'xray' } : undefined;
}

/** The sampler `OTEL_TRACES_SAMPLER` names (default `parentbased_always_on`), with its ratio where it takes one. */
export interface SamplerSetting {
  name:
    | 'always_on'
    | 'always_off'
    | 'traceidratio'
    | 'parentbased_always_on'
    | 'parentbased_always_off'
    | 'parentbased_traceidratio';
  ratio: number;
}

const SAMPLERS: readonly SamplerSetting['name'][] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

const traces = (env: Env, name: string): string | undefined =>
  env[`OTEL_EXPORTER_OTLP_TRACES_${name}`]?.trim() || env[`OTEL_EXPORTER_OTLP_${name}`]?.trim() || undefined;

/** A URL's scheme and host, for a message: never its user, password, path or query. */
const origin = (url: string): string =>
  URL.canParse(url) ? `${new URL(url).protocol}//${new URL(url).host}` : 'not a URL';

/** An HTTP header name (RFC 9110 token) and a value Node sends: visible Latin-1 and tabs, no control characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** `key=value` pairs separated by commas, values percent-decoded (the OpenTelemetry environment's format). */
export function keyValues(raw: string | undefined, variable: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const entry of (raw ?? '').split(',')) {
    if (!entry.trim()) continue;
    const at = entry.indexOf('=');
    const key = at > 0 ? entry.slice(0, at).trim() : '';
    if (!key) throw new Error(`Configuration: ${variable} has an entry without a key=value form`);
    try {
      pairs[key] = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      throw new Error(`Configuration: ${variable} has a value that is not percent-encoded correctly`);
    }
  }
  return pairs;
}

/**
 * The OTLP/HTTP traces endpoint: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else `OTEL_EXPORTER_OTLP_ENDPOINT`
 * with `/v1/traces`, else a collector on this host (a Lambda extension's or a developer's). https, or http to this
 * host only: spans go nowhere in the clear. Only the HTTP protocols (gRPC would need a client library of its own).
 */
export function otlpSettings(env: Env): OtlpSettings {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() ||
    (base ? `${base.replace(/\/+$/, '')}/v1/traces` : 'http://localhost:4318/v1/traces');
  if (!isSecureUrl(url))
    throw new Error(
      // Scheme and host only: the URL may hold a password or a key.
      `Configuration: the OTLP traces endpoint must be https, or http on this host (got ${JSON.stringify(origin(url))})`,
    );
  const protocol = traces(env, 'PROTOCOL') ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new Error(
      `Configuration: OTEL_EXPORTER_OTLP_PROTOCOL must be "http/protobuf" or "http/json" (got ${JSON.stringify(protocol)})`,
    );
  const timeout = traces(env, 'TIMEOUT');
  const timeoutMs = timeout === undefined ? 10_000 : Number(timeout);
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000)
    throw new Error(
      `Configuration: OTEL_EXPORTER_OTLP_TIMEOUT must be from 1 to 60000 ms (got ${JSON.stringify(timeout)})`,
    );
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_HEADERS
    ? 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'
    : 'OTEL_EXPORTER_OTLP_HEADERS';
  const headers = keyValues(traces(env, 'HEADERS'), variable);
  // Checked here, not on every export: a bad one would fail each of them. The message names the header, never its value.
  const bad = Object.entries(headers).find(
    ([name, value]) => !HEADER_NAME.test(name) || !HEADER_VALUE.test(value),
  );
  if (bad)
    throw new Error(
      `Configuration: ${variable} has an invalid header (${JSON.stringify(bad[0].slice(0, 64))})`,
    );
  const signing = awsSigning(url);
  return { url, protocol, headers, timeoutMs, ...(signing ? { signing } : {}) };
}

/** `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` (a ratio from 0 to 1, default 1). */
export function samplerSetting(env: Env): SamplerSetting {
  const name = (env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on') as SamplerSetting['name'];
  if (!SAMPLERS.includes(name))
    throw new Error(
      `Configuration: OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got ${JSON.stringify(name)})`,
    );
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg ? Number(arg) : 1;
  if (!(ratio >= 0 && ratio <= 1))
    throw new Error(
      `Configuration: OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (got ${JSON.stringify(arg)})`,
    );
  return { name, ratio };
}
