import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { s3Storage } from '@mcp-lambda/server/aws';
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from '../../src/local/index.ts';
import { expireLocalObjects } from '../../src/local/s3.ts';

/** The embedded S3 of `npm start`: its folder expires like the bucket does in AWS. */

const DAY = 86_400_000;
const attributes = { contentType: 'text/plain', metadata: {} };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

async function started(options: { expireAfterMs?: number; directory?: string } = {}) {
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'mcp-local-s3-')));
  const s3 = await startLocalS3({
    directory,
    bucket: 'outputs',
    ...(options.expireAfterMs !== undefined ? { expireAfterMs: options.expireAfterMs } : {}),
  });
  cleanup.push(async () => {
    await s3.stop();
    if (!options.directory) await rm(directory, { recursive: true, force: true });
  });
  const storage = s3Storage({
    bucket: 'outputs',
    endpoint: s3.endpoint,
    credentials: { ...LOCAL_S3_CREDENTIALS },
  });
  return { s3, storage, directory };
}

/** Makes every file of one object look written `days` ago. */
async function age(directory: string, key: string, days: number) {
  const folder = join(directory, 'outputs', ...key.split('/').slice(0, -1));
  const name = key.split('/').at(-1)!;
  const when = new Date(Date.now() - days * DAY);
  for (const file of await readdir(folder))
    if (file.startsWith(`${name}._S3rver_`)) await utimes(join(folder, file), when, when);
}

describe('local expiry of the embedded S3 folder', () => {
  it('removes objects older than the lifetime, keeps newer ones, and leaves no empty key folders', async () => {
    const { storage, directory } = await started();
    await storage.put('outputs/owner/old', Buffer.from('old'), attributes);
    await storage.put('outputs/new', Buffer.from('new'), attributes);
    await age(directory, 'outputs/owner/old', 8);
    expect(await expireLocalObjects(directory, 7 * DAY)).toBe(1);
    expect(await storage.get('outputs/owner/old')).toBeUndefined();
    expect(Buffer.from((await storage.get('outputs/new'))!.body).toString()).toBe('new');
    expect(await readdir(join(directory, 'outputs', 'outputs'))).not.toContain('owner');
  });

  it('expires at start when given a lifetime (npm start passes OFFLOAD_TTL_DAYS)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'mcp-local-s3-'));
    cleanup.push(() => rm(directory, { recursive: true, force: true }));
    const first = await started({ directory });
    await first.storage.put('outputs/stale', Buffer.from('x'), attributes);
    await first.s3.stop();
    await age(directory, 'outputs/stale', 8);
    const again = await started({ directory, expireAfterMs: 7 * DAY });
    expect(await again.storage.get('outputs/stale')).toBeUndefined();
  });

  it('listens on the port it is given', async () => {
    const probe = await started();
    const port = probe.s3.port;
    await probe.s3.stop();
    const fixed = await startLocalS3({ directory: (await started()).directory, bucket: 'outputs', port });
    cleanup.push(() => fixed.stop());
    expect(fixed.endpoint).toBe(`http://127.0.0.1:${port}`);
  });
});
