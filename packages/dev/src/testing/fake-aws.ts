/**
 * A stand-in for the two AWS JSON-protocol services the bridge calls that have no local server on npm: KMS
 * (GetPublicKey, Sign over a digest) and Secrets Manager (GetSecretValue). It answers exactly those operations the
 * way the services do, on loopback; the real AWS SDK clients talk to it through the standard
 * AWS_ENDPOINT_URL_KMS / AWS_ENDPOINT_URL_SECRETS_MANAGER variables. Signing uses `openssl pkeyutl`, which signs a
 * given digest as KMS does (Node can only sign messages).
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeAws {
  endpoint: string;
  /** Every operation served, e.g. `TrentService.Sign`. */
  calls: string[];
  close(): Promise<void>;
}

export async function startFakeAws(secrets: Record<string, string>): Promise<FakeAws> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const dir = mkdtempSync(join(tmpdir(), 'fake-kms-'));
  writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const calls: string[] = [];
  const answer = (target: string, input: Record<string, any>): [number, unknown] => {
    switch (target) {
      case 'TrentService.GetPublicKey':
        return [
          200,
          {
            KeyId: input.KeyId,
            KeySpec: 'ECC_NIST_P256',
            KeyUsage: 'SIGN_VERIFY',
            SigningAlgorithms: ['ECDSA_SHA_256'],
            PublicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
          },
        ];
      case 'TrentService.Sign': {
        if (input.MessageType !== 'DIGEST' || input.SigningAlgorithm !== 'ECDSA_SHA_256')
          return [400, { __type: 'ValidationException', message: 'unexpected signing request' }];
        writeFileSync(join(dir, 'digest'), Buffer.from(input.Message, 'base64'));
        const der = execFileSync('openssl', [
          'pkeyutl',
          '-sign',
          '-inkey',
          join(dir, 'key.pem'),
          '-in',
          join(dir, 'digest'),
        ]);
        return [
          200,
          { KeyId: input.KeyId, Signature: der.toString('base64'), SigningAlgorithm: 'ECDSA_SHA_256' },
        ];
      }
      case 'secretsmanager.GetSecretValue': {
        const value = secrets[input.SecretId];
        return value === undefined
          ? [
              400,
              {
                __type: 'ResourceNotFoundException',
                message: 'Secrets Manager can’t find the specified secret.',
              },
            ]
          : [200, { ARN: input.SecretId, Name: input.SecretId, SecretString: value, VersionId: 'v1' }];
      }
      default:
        return [400, { __type: 'UnknownOperationException', message: target }];
    }
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      calls.push(target);
      const [status, body] = answer(target, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        rmSync(dir, { recursive: true, force: true });
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
