import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Storage } from '@mcp-lambda/server/aws';
import { randomS3Credentials } from '../../src/local/s3.ts';
import {
  LOCAL_S3_CREDENTIALS,
  startLocalLambda,
  startLocalS3,
  type LocalLambda,
  type LocalS3,
} from '../../src/local/index.ts';

// The loopback stand-ins for the Lambda Invoke API and S3 check no signature, or a key pair everyone knows. A web
// page in this machine's browser reaches 127.0.0.1 all the same: by DNS rebinding (its own host name resolving to
// 127.0.0.1, so the page reads the answers) or cross-site (with its Origin). Both are refused before anything runs;
// the SDK, which sends neither, is served as before.

let lambda: LocalLambda;
let s3: LocalS3;
let directory: string;
const invoked: unknown[] = [];
beforeAll(async () => {
  lambda = await startLocalLambda({
    functions: {
      fn: async (event) => {
        invoked.push(event);
        return { ok: true };
      },
    },
  });
  directory = await mkdtemp(join(tmpdir(), 'mcp-loopback-only-'));
  s3 = await startLocalS3({ directory, bucket: 'outputs' });
});
afterAll(async () => {
  await lambda?.close();
  await s3?.stop();
  await rm(directory, { recursive: true, force: true });
});

/** One request to 127.0.0.1 naming any Host (fetch cannot), answered with its status and body. */
const raw = (port: number, path: string, headers: Record<string, string>, method = 'GET', body = '') =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });

const portOf = (endpoint: string) => Number(new URL(endpoint).port);
const INVOKE = '/2015-03-31/functions/fn/invocations';

describe('the local Lambda stand-in serves tools on this machine only', () => {
  it('refuses a rebinding host and a page with an Origin, 403, without invoking', async () => {
    const port = portOf(lambda.endpoint);
    const rebound = await raw(port, INVOKE, { host: `attacker.example:${port}` }, 'POST', '{"uri":"x"}');
    const crossSite = await raw(
      port,
      INVOKE,
      { host: `127.0.0.1:${port}`, origin: 'https://attacker.example' },
      'POST',
      '{}',
    );
    expect([rebound.status, crossSite.status]).toEqual([403, 403]);
    expect(invoked).toEqual([]);
  });

  it('serves a loopback host without an Origin', async () => {
    const port = portOf(lambda.endpoint);
    expect((await raw(port, INVOKE, { host: `127.0.0.1:${port}` }, 'POST', '{"a":1}')).status).toBe(200);
    expect((await raw(port, INVOKE, { host: `localhost:${port}` }, 'POST', '{"a":2}')).status).toBe(200);
    expect(invoked).toEqual([{ a: 1 }, { a: 2 }]);
  });
});

describe('the local Lambda stand-in keeps serving whatever a request holds', () => {
  it("refuses a browser's no-cors request (fetch metadata, no Origin), as an <img> sends it", async () => {
    const port = portOf(lambda.endpoint);
    const host = `127.0.0.1:${port}`;
    const img = {
      host,
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'image',
    };
    expect((await raw(port, INVOKE, img)).status).toBe(403);
    expect((await raw(port, INVOKE, { host, 'sec-fetch-dest': 'empty' })).status).toBe(403);
    // Node's own fetch sends Sec-Fetch-Mode alone: a tool on this machine.
    expect((await raw(port, INVOKE, { host, 'sec-fetch-mode': 'cors' }, 'POST', '{}')).status).toBe(200);
  });

  it('answers a broken percent-encoding and an unknown name 404, with the name capped, and serves on', async () => {
    const port = portOf(lambda.endpoint);
    const host = { host: `127.0.0.1:${port}` };
    const broken = await raw(port, '/2015-03-31/functions/%E0/invocations', host, 'POST', '{}');
    const long = await raw(port, `/2015-03-31/functions/${'x'.repeat(5000)}/invocations`, host, 'POST', '{}');
    expect([broken.status, long.status]).toEqual([404, 404]);
    expect(long.body.length).toBeLessThan(200);
    expect((await raw(port, INVOKE, host, 'POST', '{"after":1}')).status).toBe(200);
  });

  it("refuses a payload over Lambda's 6 MB limit with 413, unread, and serves on", async () => {
    const port = portOf(lambda.endpoint);
    const host = { host: `127.0.0.1:${port}` };
    const big = await raw(port, INVOKE, host, 'POST', `"${'x'.repeat(6 * 1024 * 1024)}"`).catch(() => ({
      status: 413,
      body: '',
    }));
    expect(big.status).toBe(413);
    expect((await raw(port, INVOKE, host, 'POST', '{"after":2}')).status).toBe(200);
  });
});

describe('the embedded S3 serves tools on this machine only', () => {
  it('answers a broken percent-encoding in the bucket, and an unsigned request 403, and serves on', async () => {
    const res = await raw(s3.port, '/%E0/x', { host: `127.0.0.1:${s3.port}` });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect((await raw(s3.port, '/outputs/none', { host: `127.0.0.1:${s3.port}` })).status).toBe(403);
    const storage = s3Storage({
      bucket: 'outputs',
      endpoint: s3.endpoint,
      credentials: { ...LOCAL_S3_CREDENTIALS },
    });
    expect(await storage.get('none')).toBeUndefined();
  });

  it('refuses a rebinding host and a page with an Origin; the SDK still reads and writes', async () => {
    const storage = s3Storage({
      bucket: 'outputs',
      endpoint: s3.endpoint,
      credentials: { ...LOCAL_S3_CREDENTIALS },
    });
    await storage.put('owner/secret', Buffer.from('kept'), { contentType: 'text/plain', metadata: {} });
    const rebound = await raw(s3.port, '/outputs/owner/secret', { host: `outputs:${s3.port}` });
    const listed = await raw(s3.port, '/?list-type=2', { host: `outputs.attacker.example:${s3.port}` });
    const crossSite = await raw(s3.port, '/outputs/owner/secret', {
      host: `127.0.0.1:${s3.port}`,
      origin: 'https://attacker.example',
    });
    expect([rebound.status, listed.status, crossSite.status]).toEqual([403, 403, 403]);
    expect(rebound.body + listed.body + crossSite.body).not.toMatch(/kept|secret/);
    expect(Buffer.from((await storage.get('owner/secret'))!.body).toString()).toBe('kept');
  });
});

describe('the embedded S3 keeps to its folder', () => {
  const host = () => ({ host: `127.0.0.1:${s3.port}` });

  it('refuses a key, an upload id or a copy source that climbs out of the bucket, and writes nothing', async () => {
    const escape = encodeURIComponent('../../../../escaped');
    const up = encodeURIComponent('../../../../../escaped-dir');
    const attempts = [
      await raw(s3.port, `/outputs/${escape}`, host(), 'PUT', 'x'),
      await raw(s3.port, `/outputs/a/..%2F..%2Fescaped`, host(), 'PUT', 'x'),
      await raw(s3.port, `/outputs/a/%252E%252E/escaped`, host(), 'PUT', 'x'),
      await raw(s3.port, `/outputs/a?partNumber=1&uploadId=${up}`, host(), 'PUT', 'x'),
      await raw(
        s3.port,
        `/outputs/b`,
        { ...host(), 'x-amz-copy-source': '/outputs/../../etc/passwd' },
        'PUT',
      ),
      await raw(s3.port, `/..%2F..%2Fx/key`, host(), 'PUT', 'x'),
    ];
    expect(attempts.map((a) => a.status)).toEqual([400, 400, 400, 400, 400, 400]);
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(join(directory, '..'))).filter((name) => name.startsWith('escaped'))).toEqual([]);
  });

  it('still stores and reads what the SDK sends, multipart uploads included', async () => {
    const storage = s3Storage({
      bucket: 'outputs',
      endpoint: s3.endpoint,
      credentials: { ...LOCAL_S3_CREDENTIALS },
    });
    const big = Buffer.alloc(6 * 1024 * 1024, 7);
    await storage.put('owner/big', big, { contentType: 'application/octet-stream', metadata: {} });
    expect(Buffer.from((await storage.get('owner/big'))!.body).equals(big)).toBe(true);
  });
});

describe("the embedded S3 of a run takes that run's key pair only", () => {
  it('refuses requests signed with the public pair, or with none, and serves those signed with its own', async () => {
    const own = randomS3Credentials();
    const folder = await mkdtemp(join(tmpdir(), 'mcp-s3-keys-'));
    const private_ = await startLocalS3({ directory: folder, bucket: 'outputs', credentials: own });
    try {
      const at = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
        s3Storage({ bucket: 'outputs', endpoint: private_.endpoint, credentials });
      await at(own).put('owner/kept', Buffer.from('kept'), { contentType: 'text/plain', metadata: {} });
      await expect(at({ ...LOCAL_S3_CREDENTIALS }).get('owner/kept')).rejects.toThrow();
      await expect(
        at({ accessKeyId: own.accessKeyId, secretAccessKey: 'guessed' }).get('owner/kept'),
      ).rejects.toThrow();
      const unsigned = await raw(private_.port, '/outputs/owner/kept', {
        host: `127.0.0.1:${private_.port}`,
      });
      expect(unsigned.status).toBe(403);
      expect(unsigned.body).not.toContain('kept<');
      expect(Buffer.from((await at(own).get('owner/kept'))!.body).toString()).toBe('kept');
      expect(own.accessKeyId).not.toBe(randomS3Credentials().accessKeyId);
    } finally {
      await private_.stop();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
