import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalS3, LocalS3Request } from '../local/s3.ts';
import { s3Storage, s3RangeReader } from '@mcp-lambda/server/aws';
import type { RangeReader } from '@mcp-lambda/server/backend';

/** A real S3-compatible server for one test file, on 127.0.0.1 with a free port and a temporary folder. */
export interface TestS3 extends LocalS3 {
  /** Every request the server received, oldest first. */
  readonly requests: LocalS3Request[];
  /** Object keys requested so far (requests that named one). */
  keys(): string[];
  /** A storage client for it (write and read), as the functions build one. */
  storage(): ReturnType<typeof s3Storage>;
  /** A storage client with ranged reads too (what the companion reads pages with). */
  rangedStorage(): ReturnType<typeof s3Storage> & RangeReader;
  /** The environment the MCP and companion functions read to use it. */
  env(prefix?: string): Record<string, string>;
  /** Stops the server and deletes its folder. */
  close(): Promise<void>;
}

export const TEST_BUCKET = 'test-outputs';

/** Starts a local S3 server for tests. */
export async function startTestS3(): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'mcp-s3-'));
  const requests: LocalS3Request[] = [];
  // The S3 server loads when one starts: a test that only imports the helpers beside it never pays for it.
  const { LOCAL_S3_CREDENTIALS, startLocalS3 } = await import('../local/s3.ts');
  const s3 = await startLocalS3({ directory, bucket: TEST_BUCKET, onRequest: (r) => requests.push(r) });
  const options = {
    bucket: TEST_BUCKET,
    endpoint: s3.endpoint,
    credentials: { ...LOCAL_S3_CREDENTIALS },
    // The local server shares two cores with every other test file: allow it time under load.
    connectionTimeoutMs: 15_000,
    requestTimeoutMs: 60_000,
  };
  return Object.assign(s3, {
    requests,
    keys: () => requests.flatMap((r) => (r.key === undefined ? [] : [r.key])),
    storage: () => s3Storage(options),
    rangedStorage: () => Object.assign(s3Storage(options), s3RangeReader(options)),
    env: (prefix = 'outputs/') => ({
      OFFLOAD_BUCKET: TEST_BUCKET,
      OFFLOAD_PREFIX: prefix,
      S3_ENDPOINT: s3.endpoint,
      AWS_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
      AWS_REGION: 'us-east-1',
    }),
    close: async () => {
      await s3.stop();
      await rm(directory, { recursive: true, force: true });
    },
  });
}

/** An endpoint on 127.0.0.1 where nothing listens (a port the OS handed out and that was released again). */
export async function deadEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
