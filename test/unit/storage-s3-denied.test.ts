import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Storage } from '../../src/storage/s3.ts';

// A stand-in for S3 answering every GetObject as real S3 does for a missing key when the caller lacks ListBucket.
const s3 = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(
      '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
    );
  });
});
let endpoint = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => s3.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(s3.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => s3.close(() => resolve())));

describe('S3 storage under a read-only policy', () => {
  it('reads a key that S3 refuses with 403 AccessDenied as missing, as S3 does for absent keys without ListBucket', async () => {
    const storage = s3Storage({
      bucket: 'outputs-bucket',
      endpoint,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    await expect(storage.get('outputs/0123456789abcdef0123456789abcdef')).resolves.toBeUndefined();
  });
});
