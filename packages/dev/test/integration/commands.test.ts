import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `mcp-lambda-dev`, the bin an app's npm scripts call: its commands, and `start` serving the app of the folder it
 * runs in (here a small app of the test's own, written to a temporary folder, TypeScript entries as an app has).
 */

const BIN = fileURLToPath(new URL('../../bin/mcp-lambda-dev.js', import.meta.url));

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

const dev = (args: string[]) =>
  new Promise<Output>((done) =>
    execFile(process.execPath, [BIN, ...args], (error, stdout, stderr) =>
      done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );

/** An app folder with an MCP function that answers where it runs, and a companion it never calls. */
function writeApp(): string {
  const app = mkdtempSync(join(tmpdir(), 'dev-commands-app-'));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ type: 'module' }),
    'functions/mcp/handler.ts':
      'export const handler = async (event: { rawPath: string }) => ({ statusCode: 200, ' +
      'body: JSON.stringify({ path: event.rawPath, bucket: process.env.OFFLOAD_BUCKET }) });\n',
    'functions/companion/handler.ts': 'export const handler = async () => ({});\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(app, path)), { recursive: true });
    writeFileSync(join(app, path), text);
  }
  return app;
}

/** Runs `start` in `app` until it listens, hands the endpoint URL to `use`, then stops it as Ctrl-C would. */
function startIn(app: string, use: (url: string) => Promise<void>): Promise<number | null> {
  const { LOCAL_S3_DIR, OFFLOAD_BUCKET, RESOURCES_FUNCTION_NAME, MCP_AUTH_MODE, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, 'start'], { cwd: app, env: { ...env, PORT: '0' } });
  return new Promise((done, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const listening = /"message":"listening","url":"([^"]+)"/.exec(out);
      if (listening && !child.killed)
        use(listening[1]!).then(
          () => child.kill('SIGINT'),
          (error: unknown) => {
            child.kill('SIGKILL');
            reject(error);
          },
        );
    });
    child.on('error', reject);
    child.on('close', done);
  });
}

describe('mcp-lambda-dev', () => {
  it('--help names each command with its usage', async () => {
    const out = await dev(['--help']);
    expect(out.code).toBe(0);
    for (const usage of [
      'npm start',
      'npm run view',
      'npm run local-user',
      'npm run signout',
      'npm run load',
    ])
      expect(out.stdout).toContain(`usage: ${usage}`);
  });

  it('an unknown command prints the commands on stderr and exits 2', async () => {
    const out = await dev(['serve']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('usage: mcp-lambda-dev start|view|local-user|signout|generate|load');
  });

  it("a command's --help prints its usage and runs nothing", async () => {
    const out = await dev(['local-user', '--help']);
    expect(out).toEqual({
      code: 0,
      stdout: 'usage: npm run local-user -- disable|enable [http://127.0.0.1:3000]\n',
      stderr: '',
    });
  });

  it("start serves the entries of the app it runs in, and keeps the outputs in the app's .local/s3", async () => {
    const app = writeApp();
    const code = await startIn(app, async (url) => {
      const res = await fetch(url, { method: 'POST', body: '{}' });
      expect(await res.json()).toEqual({ path: '/mcp', bucket: 'mcp-outputs-local' });
    });
    expect(code).toBe(0);
    expect(existsSync(join(app, '.local', 's3', 'mcp-outputs-local'))).toBe(true);
  });
});
