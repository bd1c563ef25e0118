/**
 * An embedded S3-compatible server for `npm start` and the tests (`@20minutes/s3rver`, a dev dependency), bound to
 * loopback. It is served through our own node:http server so it can be stopped and started again on the same
 * port (fault tests) and so every request's key can be observed.
 */
import { readdir, rmdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeIdleConnectionsSafely } from './keep-alive.ts';
import { refuseWebPage } from './loopback-only.ts';
import { accessDenied, accessKeyOf, invalidName, namesOnlyObjects, parseS3Path } from './s3-requests.ts';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';

/** The key pair everyone knows, s3rver's own: what a test's server takes unless it is given another. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** A key pair the server checks request signatures with. */
export interface LocalS3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** A new key pair no one else knows, for one run of `npm start`. */
export function randomS3Credentials(): LocalS3Credentials {
  return {
    accessKeyId: `LOCAL${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64url'),
  };
}

/** One request as the server saw it. */
export interface LocalS3Request {
  method: string;
  bucket: string | undefined;
  /** Decoded object key, when the request names one. */
  key: string | undefined;
}

export interface LocalS3Options {
  /** Folder the objects live in. */
  directory: string;
  /** Bucket created at start. */
  bucket: string;
  /** Port on 127.0.0.1; 0 lets the OS choose. Default 0. */
  port?: number;
  /** Called for every request, before it is served. */
  onRequest?: (request: LocalS3Request) => void;
  /**
   * The only key pair requests may be signed with: any other, or none, is refused with 403. Default
   * {@link LOCAL_S3_CREDENTIALS}, which everyone knows (tests); `npm start` gives each run a new one
   * ({@link randomS3Credentials}), so another user of the machine cannot read or write the outputs through the port.
   */
  credentials?: LocalS3Credentials;
  /**
   * Objects older than this are deleted at start and then every hour, as the bucket's lifecycle rule does in AWS
   * (`npm start` passes OFFLOAD_TTL_DAYS). Default: never.
   */
  expireAfterMs?: number;
}

/** How often the local expiry runs while the server is up. */
const EXPIRY_SWEEP_MS = 3_600_000;

export interface LocalS3 {
  /** `http://127.0.0.1:PORT` */
  endpoint: string;
  port: number;
  bucket: string;
  /** The key pair it accepts. */
  credentials: LocalS3Credentials;
  /** Whether it is accepting connections. */
  readonly running: boolean;
  /** Stops accepting connections and drops open ones (objects stay on disk). */
  stop(): Promise<void>;
  /** Serves again on the same port after `stop()`. */
  start(): Promise<void>;
}

interface S3rverInstance {
  configureBuckets(): Promise<unknown>;
  store: { getResourcePath(bucket: string, key: string, resource: 'object'): string };
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

/**
 * S3 refuses any byte range of an empty object with 416 InvalidRange; s3rver instead announces one byte and sends
 * none, which leaves the client waiting. Answer such requests as S3 does.
 */
async function isRangeOfEmptyObject(
  s3rver: S3rverInstance,
  req: IncomingMessage,
  target: ReturnType<typeof parseS3Path>,
): Promise<boolean> {
  if (req.method !== 'GET' || !req.headers.range || !target.bucket || !target.key) return false;
  try {
    return (await stat(s3rver.store.getResourcePath(target.bucket, target.key, 'object'))).size === 0;
  } catch {
    return false;
  }
}

function invalidRange(res: ServerResponse): void {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidRange</Code>' +
    '<Message>The requested range is not satisfiable</Message></Error>';
  res.writeHead(416, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Local expiry for the embedded S3's folder (`.local/s3`): in AWS the bucket's lifecycle rule deletes stored
 * outputs after OFFLOAD_TTL_DAYS; locally nothing would, and the folder would grow forever. s3rver keeps each
 * object as `<key>._S3rver_object` beside its `.md5` and `_metadata.json` files, under its bucket's folder.
 */

const OBJECT_SUFFIX = '._S3rver_object';
const OBJECT_FILES = [OBJECT_SUFFIX, `${OBJECT_SUFFIX}.md5`, '._S3rver_metadata.json'];

/**
 * Removes the objects written more than `maxAgeMs` ago from every bucket under `directory`, and the key folders
 * left empty (never a bucket's own folder). Returns how many objects were removed; never throws.
 */
export async function expireLocalObjects(
  directory: string,
  maxAgeMs: number,
  now = Date.now(),
): Promise<number> {
  let removed = 0;
  /** Sweeps one folder; true when it is empty afterwards. */
  const sweep = async (folder: string): Promise<boolean> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (await sweep(path)) await rmdir(path).catch(() => undefined);
        continue;
      }
      if (!entry.name.endsWith(OBJECT_SUFFIX)) continue;
      const written = await stat(path).then(
        (info) => info.mtimeMs,
        () => now,
      );
      if (now - written <= maxAgeMs) continue;
      const base = path.slice(0, -OBJECT_SUFFIX.length);
      await Promise.all(OBJECT_FILES.map((suffix) => unlink(base + suffix).catch(() => undefined)));
      removed += 1;
    }
    return (await readdir(folder).catch(() => [null])).length === 0;
  };
  const buckets = await readdir(directory, { withFileTypes: true }).catch(() => []);
  for (const bucket of buckets) if (bucket.isDirectory()) await sweep(join(directory, bucket.name));
  return removed;
}

/** Starts the server with the bucket created (through the server's own `configureBuckets`). */
export async function startLocalS3(options: LocalS3Options): Promise<LocalS3> {
  const require = createRequire(import.meta.url);
  const S3rver = require('@20minutes/s3rver') as S3rverConstructor;
  const credentials = { ...(options.credentials ?? LOCAL_S3_CREDENTIALS) };
  // s3rver checks each request's signature against the key pairs of its one account; the pair is added there, and
  // requests signed with any other pair (its own public one included) are refused before s3rver sees them.
  const { DUMMY_ACCOUNT } = require('@20minutes/s3rver/lib/models/account.js') as {
    DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
  };
  DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const s3rver = new S3rver({
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket }],
  });
  await s3rver.configureBuckets();
  const serve = s3rver.callback();
  let server: Server | undefined;
  let port = options.port ?? 0;
  const { expireAfterMs } = options;
  const expire = () =>
    expireAfterMs === undefined ? Promise.resolve(0) : expireLocalObjects(options.directory, expireAfterMs);
  await expire();
  let sweeper: NodeJS.Timeout | undefined;

  const listen = async () => {
    const next = createServer((req, res) => {
      // Its key pair is public (LOCAL_S3_CREDENTIALS): a web page must not get to sign with it.
      if (refuseWebPage(req, res)) return;
      const copySource = req.headers['x-amz-copy-source'];
      if (!namesOnlyObjects(req.url, Array.isArray(copySource) ? copySource.join() : copySource)) {
        return invalidName(res);
      }
      if (accessKeyOf(req) !== credentials.accessKeyId) return accessDenied(res);
      const target = parseS3Path(req.url);
      options.onRequest?.({ method: req.method ?? 'GET', ...target });
      void isRangeOfEmptyObject(s3rver, req, target).then((empty) =>
        empty ? invalidRange(res) : serve(req, res),
      );
    });
    closeIdleConnectionsSafely(next);
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    port = (next.address() as AddressInfo).port;
    server = next;
    if (expireAfterMs !== undefined) sweeper = setInterval(() => void expire(), EXPIRY_SWEEP_MS).unref();
  };
  await listen();

  return {
    get endpoint() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    bucket: options.bucket,
    credentials,
    get running() {
      return server !== undefined;
    },
    async stop() {
      const current = server;
      if (!current) return;
      server = undefined;
      clearInterval(sweeper);
      await new Promise<void>((resolve) => {
        current.close(() => resolve());
        current.closeAllConnections();
      });
    },
    async start() {
      if (!server) await listen();
    },
  };
}
