import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Storage } from '../../src/storage/s3.ts';

// A stand-in for S3 answering every GetObject with a 403 of the code the test chooses.
let code = 'AccessDenied';
const s3 = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>denied</Message></Error>`,
    );
  });
});
let endpoint = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => s3.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(s3.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => s3.close(() => resolve())));

const storage = () =>
  s3Storage({
    bucket: 'outputs-bucket',
    endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });

describe('S3 storage under a read-only policy', () => {
  it.each(['SignatureDoesNotMatch', 'InvalidAccessKeyId', 'KMS.AccessDeniedException'])(
    'a 403 %s is a storage failure, never "not found"',
    async (denial) => {
      code = denial;
      await expect(storage().get('outputs/0123456789abcdef0123456789abcdef')).rejects.toThrow();
    },
  );

  it('reads a key that S3 refuses with 403 AccessDenied as missing, as S3 does for absent keys without ListBucket', async () => {
    code = 'AccessDenied';
    await expect(storage().get('outputs/0123456789abcdef0123456789abcdef')).resolves.toBeUndefined();
  });
});
