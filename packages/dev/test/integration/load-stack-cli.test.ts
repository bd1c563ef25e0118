import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run load` as a user runs it, with and without `--stack`: without it the AWS SDK is never loaded (a hook in
 * the child notes every `@aws-sdk/` module it resolves); with it and no AWS to reach (every service endpoint on a
 * closed loopback port), the run goes on and its report says what could not be read and why.
 */

const BIN = fileURLToPath(new URL('../../bin/mcp-lambda-dev.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'load-stack-cli-'));
const HOOK = join(folder, 'note-sdk.mjs');
let mcp: Server;
let url: string;
let closedPort: number;

/** A loopback MCP responder: ping, answered at once. */
function responder(): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { id: number; method: string };
      const result =
        message.method === 'tools/list'
          ? { tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }
          : { content: [{ type: 'text', text: 'pong' }] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  writeFileSync(
    HOOK,
    "import { registerHooks } from 'node:module';\n" +
      'registerHooks({ resolve(specifier, context, next) {\n' +
      "  if (specifier.startsWith('@aws-sdk/')) process.stderr.write(`resolved ${specifier}\\n`);\n" +
      '  return next(specifier, context);\n' +
      '} });\n',
  );
  mcp = responder();
  url = `http://127.0.0.1:${await listen(mcp)}/mcp`;
  // A port nothing listens on: every AWS call is refused at once.
  const gone = createServer();
  closedPort = await listen(gone);
  await new Promise((resolve) => gone.close(resolve));
});

afterAll(async () => {
  mcp.closeAllConnections();
  await new Promise((resolve) => mcp.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

/** The load command in a child process, with the hook, AWS pointed at nothing, and no credentials of this machine. */
const load = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(
      process.execPath,
      ['--import', pathToFileURL(HOOK).href, BIN, 'load', '--url', url, '--amount', '5', '--json', ...args],
      {
        timeout: 60_000,
        env: {
          ...process.env,
          AWS_ENDPOINT_URL: `http://127.0.0.1:${closedPort}`,
          AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
          AWS_SECRET_ACCESS_KEY: 'not-a-secret',
          AWS_CONFIG_FILE: join(folder, 'none'),
          AWS_SHARED_CREDENTIALS_FILE: join(folder, 'none'),
          AWS_EC2_METADATA_DISABLED: 'true',
        },
      },
      (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );

describe('npm run load and the AWS SDK', () => {
  it('never loads the SDK without --stack', async () => {
    const run = await load([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('resolved @aws-sdk/');
    expect(JSON.parse(run.stdout)).not.toHaveProperty('stack');
  });

  it('with --stack and no AWS to reach, runs the load and says what it could not read', async () => {
    const run = await load(['--stack', 'McpServer', '--region', 'eu-west-1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('resolved @aws-sdk/client-cloudformation');
    expect(run.stderr).toContain('reading stack McpServer: its limits now, its Lambda side after the run…');
    const report = JSON.parse(run.stdout) as { passed: boolean; requests: number; stack: unknown };
    expect(report).toMatchObject({ passed: true, requests: 5 });
    expect(report.stack).toEqual({
      stack: 'McpServer',
      region: 'eu-west-1',
      limits: {},
      expectedMs: expect.any(Number),
      warnings: [],
      notes: [],
      problems: [
        expect.stringMatching(/^stack McpServer not read: cloudformation:DescribeStacks: .*ECONNREFUSED/),
      ],
    });
    expect(run.stderr).toMatch(/^note: stack McpServer not read: /m);
  });
});
