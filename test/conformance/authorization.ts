/**
 * The conformance suite's authorization-server scenarios (0.2 alpha: `authorization-server-metadata-endpoint`,
 * `authorization-code-grant`) against the local authorization bridge, inside `npm run conformance`.
 *
 * The code-grant scenario acts as a client: it prints an authorization URL for a person to open and waits for the
 * redirect on its own loopback callback. Here a client is registered for that callback first (Dynamic Client
 * Registration), and the printed URL is followed like a browser (consent page, upstream sign-in) until the bridge
 * redirects to the suite's callback, which then receives it.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createMcpServer,
  loadOAuthAuthenticator,
  createLambdaHandler,
  silentLogger,
} from '@mcp-lambda/server/lambda';
import { startLocalAuthorization } from '@mcp-lambda/dev';
import { browse } from '@mcp-lambda/dev/testing';
import { freePort } from '../support/free-port.ts';

const TIMEOUT_MS = 120_000;
const PASSWORD = 'conformance-password';

export interface AuthorizationRun {
  ok: boolean;
  /** One line per scenario: name, passed and failed checks. */
  lines: string[];
  output: string;
}

export async function runAuthorizationConformance(
  node: string,
  root: string,
  resultsDir: string,
): Promise<AuthorizationRun> {
  const createOAuthAuthenticator = await loadOAuthAuthenticator();
  const stack = await startLocalAuthorization({
    port: 0,
    password: PASSWORD,
    mcpHandler: async ({ issuer, resource, scope }) =>
      createLambdaHandler(
        createMcpServer({
          info: { name: 'conformance-authorization', version: '1.0.0' },
          tools: [],
          auth: createOAuthAuthenticator({ issuer, resource, requiredScopes: [scope] }),
        }).handle,
        silentLogger,
      ),
  });
  try {
    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/callback`;
    const registration = await fetch(`${stack.issuer}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'MCP conformance suite',
        redirect_uris: [callback],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id: clientId } = (await registration.json()) as { client_id: string };
    const args = [
      join(root, 'node_modules/@modelcontextprotocol/conformance-next/dist/index.js'),
      'authorization',
      '--url',
      stack.issuer,
      '--client-id',
      clientId,
      '--resource',
      stack.resource,
      '--port',
      String(port),
      '-o',
      resultsDir,
    ];
    const child = spawn(node, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let driven: Promise<void> | undefined;
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((l) => l.startsWith(`${stack.issuer}/oauth/authorize?`));
      if (line && !driven) {
        // Act as the person at the browser, then deliver the redirect to the suite's callback server.
        driven = browse(line.trim(), {
          until: callback,
          email: stack.upstream.user.email,
          password: PASSWORD,
        })
          .then(({ callback: url }) => fetch(url).then((r) => r.body?.cancel()))
          .catch((error: unknown) => {
            output += `\nconformance: driving the authorization URL failed: ${(error as Error).message}\n`;
          });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const code = await new Promise<number>((done) => {
      const timer = setTimeout(() => {
        output += `\nconformance: the authorization suite did not finish within ${TIMEOUT_MS / 1000} s\n`;
        child.kill('SIGKILL');
      }, TIMEOUT_MS);
      child.on('close', (c) => {
        clearTimeout(timer);
        done(c ?? 1);
      });
    });
    await driven;
    const lines: string[] = [];
    let ok = code === 0;
    for (const entry of (await readdir(resultsDir)).sort()) {
      const match = /^authorization-server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
      if (!match) continue;
      const checks = JSON.parse(await readFile(join(resultsDir, entry, 'checks.json'), 'utf8')) as {
        status: string;
      }[];
      const passed = checks.filter((c) => c.status === 'SUCCESS').length;
      const failed = checks.filter((c) => c.status !== 'SUCCESS').length;
      if (failed) ok = false;
      lines.push(`  ${match[1]}: ${passed} passed, ${failed} not passed`);
    }
    if (lines.length < 2) ok = false;
    return { ok, lines, output };
  } finally {
    await stack.close();
  }
}
