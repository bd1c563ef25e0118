/**
 * What the embedded S3 checks before s3rver sees a request: that it names only places inside the bucket's folder
 * (s3rver builds file paths from the names as they come) and that it is signed with the run's key pair.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Splits a path-style request URL into bucket and key. */
export function parseS3Path(url: string | undefined): {
  bucket: string | undefined;
  key: string | undefined;
} {
  const path = (url ?? '/').split('?')[0]!;
  const slash = path.indexOf('/', 1);
  const bucket = path.slice(1, slash === -1 ? undefined : slash) || undefined;
  const rawKey = slash === -1 ? '' : path.slice(slash + 1);
  return { bucket: bucket && decoded(bucket), key: rawKey ? decoded(rawKey) : undefined };
}

/** A path segment decoded, or as it came when its percent-encoding is broken (s3rver then answers it). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A bucket name as S3 allows it (lower-case letters, digits, dots and hyphens, 3 to 63). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** The upload ids s3rver makes: 16 random bytes in hex. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** Whether a key keeps to its bucket's folder: no `.` or `..` segment, no backslash, no NUL, decoded once more too. */
const keyStaysInBucket = (key: string): boolean =>
  [key, decoded(key)].every(
    (form) => !/[\\\0]/.test(form) && form.split('/').every((segment) => segment !== '.' && segment !== '..'),
  );

/**
 * Whether a request names only places inside the bucket's folder. s3rver builds file paths from the bucket, the
 * key, the upload id and the copy source as they come, so a `..` among them would read or write files outside its
 * folder (S3 itself treats them as plain names). Such requests are refused before s3rver sees them.
 */
export function namesOnlyObjects(url: string | undefined, copySource: string | undefined): boolean {
  const { bucket, key } = parseS3Path(url);
  if (bucket !== undefined && (!BUCKET_NAME.test(bucket) || bucket.includes('..'))) return false;
  if (key !== undefined && !keyStaysInBucket(key)) return false;
  const uploadId = new URLSearchParams((url ?? '').split('?')[1] ?? '').get('uploadId');
  if (uploadId !== null && !UPLOAD_ID.test(uploadId)) return false;
  if (copySource === undefined) return true;
  const source = parseS3Path(`/${copySource.replace(/^\//, '')}`);
  return source.bucket !== undefined && BUCKET_NAME.test(source.bucket) && keyStaysInBucket(source.key ?? '');
}

/** The access key id a request is signed with: its Authorization header's (v4 or v2) or its query's (presigned). */
export function accessKeyOf(req: IncomingMessage): string | undefined {
  const authorization = req.headers.authorization ?? '';
  const header =
    /Credential=([^/,\s]+)\//.exec(authorization)?.[1] ?? /^AWS ([^:\s]+):/.exec(authorization)?.[1];
  if (header !== undefined) return header;
  const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
  return query.get('X-Amz-Credential')?.split('/')[0] ?? query.get('AWSAccessKeyId') ?? undefined;
}

export function accessDenied(res: ServerResponse): void {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InvalidAccessKeyId</Code>' +
    '<Message>The AWS Access Key Id you provided does not exist in our records.</Message></Error>';
  res.writeHead(403, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The answer to a request that names something outside the bucket's folder. */
export function invalidName(res: ServerResponse): void {
  res.writeHead(400, { 'content-type': 'application/xml', connection: 'close' });
  res.end('<Error><Code>InvalidArgument</Code><Message>Invalid name</Message></Error>');
}
