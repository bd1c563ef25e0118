/**
 * An https server on loopback with a throwaway self-signed certificate (made with the openssl CLI), for Client ID
 * Metadata Documents: the bridge fetches them over https only, so tests serve them the same way and hand the
 * bridge this certificate as an extra trusted CA.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let material: { key: string; cert: string } | undefined;

/** A certificate for 127.0.0.1 and localhost, valid for a day, made once per test process. */
export function loopbackCertificate(): { key: string; cert: string } {
  if (material) return material;
  const dir = mkdtempSync(join(tmpdir(), 'bridge-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    material = {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
    return material;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface HttpsFixture {
  /** https://127.0.0.1:PORT */
  origin: string;
  /** The certificate to trust. */
  ca: string;
  /** Requests served so far, by path. */
  hits: Map<string, number>;
  server: Server;
  close(): Promise<void>;
}

export async function startHttpsFixture(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<HttpsFixture> {
  const { key, cert } = loopbackCertificate();
  const hits = new Map<string, number>();
  const server = createServer({ key, cert }, (req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    ca: cert,
    hits,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
