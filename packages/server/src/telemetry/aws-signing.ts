import { nodeCrypto } from '../crypto.ts';
import type { AwsSigning } from './otlp-settings.ts';

/** Signs one export's POST: the headers to send with it, `authorization` and `x-amz-*` included. */
export type SignExport = (
  url: URL,
  headers: Record<string, string>,
  body: Uint8Array,
) => Promise<Record<string, string>>;

/** An AWS identity: the function role's keys (in Lambda, from the environment). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

const sha256 = (data: string | Uint8Array) => nodeCrypto().createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) =>
  nodeCrypto().createHmac('sha256', key).update(data).digest();

/** RFC 3986 percent-encoding, as Signature Version 4 encodes a URI's parts. */
const encode = (part: string) =>
  encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A path as Signature Version 4 canonicalizes it for every service but S3: empty and `.` segments dropped, `..`
 * resolved, each segment encoded again (the URL's path is already encoded once), a trailing slash kept.
 */
function canonicalPath(pathname: string): string {
  const segments: string[] = [];
  for (const segment of pathname.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment && segment !== '.') segments.push(segment);
  }
  const path = `/${segments.map(encode).join('/')}`;
  return segments.length && pathname.endsWith('/') ? `${path}/` : path;
}

/**
 * The `authorization` header and the `x-amz-*` headers of a POST, by AWS Signature Version 4: the canonical request
 * (the path's segments encoded again, as every service but S3 takes them; the query sorted; the signed headers
 * lower-cased and sorted; the body's SHA-256), the string to sign for `<date>/<region>/<service>/aws4_request`, and
 * its HMAC-SHA256 under the key derived from the secret. The signed headers are exactly `content-type`, `host` and
 * the `x-amz-*` ones: the body, where it goes and when are covered; other headers travel unsigned.
 */
export function signV4(
  request: { url: URL; contentType: string; body: Uint8Array },
  { region, service }: AwsSigning,
  credentials: AwsCredentials,
  now: Date,
): Record<string, string> {
  const amzDate = now.toISOString().replace(/[-:]|\.\d{3}/g, '');
  const date = amzDate.slice(0, 8);
  const payloadHash = sha256(request.body);
  const signed: Record<string, string> = {
    'content-type': request.contentType,
    host: request.url.host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
    ...(credentials.sessionToken ? { 'x-amz-security-token': credentials.sessionToken } : {}),
  };
  const names = Object.keys(signed).sort();
  const path = canonicalPath(request.url.pathname);
  const query = [...request.url.searchParams]
    .map(([key, value]) => [encode(key), encode(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonical = [
    'POST',
    path,
    query,
    names.map((name) => `${name}:${signed[name]!.trim().replace(/\s+/g, ' ')}\n`).join(''),
    names.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date), region), service),
    'aws4_request',
  );
  const signature = nodeCrypto().createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...signed,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

/**
 * Where the credentials come from: in Lambda, the function role's keys in the environment (read at each export,
 * nothing loaded); elsewhere (`npm start` sending to X-Ray) the AWS SDK's default chain (a profile, SSO, an
 * instance role), loaded only then, which caches the keys and renews them before they expire.
 */
function credentialsOf(env: NodeJS.ProcessEnv): () => Promise<AwsCredentials> {
  let chain: Promise<() => Promise<AwsCredentials>> | undefined;
  return async () => {
    const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env;
    if (accessKeyId && secretAccessKey)
      return {
        accessKeyId,
        secretAccessKey,
        ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
      };
    chain ??= import('@aws-sdk/credential-provider-node').then((module) => module.defaultProvider());
    return (await chain)();
  };
}

/**
 * Exports to an OTLP endpoint of AWS (X-Ray's `https://xray.<region>.amazonaws.com/v1/traces`) signed with AWS
 * Signature Version 4 (`signV4`, over Node's own crypto: nothing more loaded at cold start). The headers given are
 * sent as they are, unsigned.
 */
export function exportSigner(signing: AwsSigning, env = process.env): SignExport {
  const credentials = credentialsOf(env);
  return async (url, headers, body) => {
    const contentType = headers['content-type'] ?? 'application/x-protobuf';
    const signed = signV4({ url, contentType, body }, signing, await credentials(), new Date());
    return { ...headers, ...signed };
  };
}
