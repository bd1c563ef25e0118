import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `npm start` as a user runs it: a child process, its output lines and its exit status. */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Run {
  stdout: string[];
  stderr: string[];
  code: number | null;
}

/**
 * Runs functions/local/main.ts with `env`. With `use`, waits for the "listening" line, hands the endpoint URL to
 * `use`, then stops the server with SIGTERM, as `kill` would.
 */
function start(env: Record<string, string | undefined>, use?: (url: string) => Promise<void>): Promise<Run> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local/main.ts'], {
      cwd: root,
      // The embedded S3 keeps its data in the run's temporary folder, never in the checkout's .local/s3.
      env: {
        ...process.env,
        POWERTOOLS_LOG_LEVEL: undefined,
        LOCAL_S3_DIR: mkdtempSync(join(tmpdir(), 'npm-start-s3-')),
        ...env,
      },
    });
    const run: Run = { stdout: [], stderr: [], code: null };
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        run.stdout.push(line);
        const message = JSON.parse(line) as { message?: string; url?: string };
        if (message.message === 'listening' && use)
          use(message.url!).then(
            () => child.kill('SIGTERM'),
            (error: unknown) => {
              child.kill('SIGKILL');
              reject(error);
            },
          );
      }
    });
    child.stderr.on('data', (chunk: Buffer) =>
      run.stderr.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
    );
    child.on('error', reject);
    child.on('close', (code) => done({ ...run, code }));
  });
}

const ping = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}}',
  }).then(async (res) => expect(await res.json()).toMatchObject({ result: { content: [{ text: 'pong' }] } }));

let busy: Server;
let busyPort: number;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((ready) => busy.listen(0, '127.0.0.1', () => ready()));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((closed) => busy.close(() => closed())));

describe('npm start', () => {
  it('a busy port: one line on stderr, exit status 1, and the embedded S3 never started', async () => {
    const run = await start({ PORT: String(busyPort), OFFLOAD_BUCKET: undefined });
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([
      expect.stringMatching(new RegExp(`^npm start: port ${busyPort} .*already in use`)),
    ]);
    expect(run.stdout.join('\n')).not.toMatch(/local S3 listening/);
  });

  it('a busy LOCAL_S3_PORT: one line on stderr and exit status 1', async () => {
    const run = await start({ PORT: '0', LOCAL_S3_PORT: String(busyPort), OFFLOAD_BUCKET: undefined });
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([expect.stringMatching(/^npm start: LOCAL_S3_PORT \d+ .*already in use/)]);
  });

  it('an invalid setting: one line on stderr naming it, and exit status 1', async () => {
    const run = await start({ PORT: '0', MCP_PAGE_SIZE: 'many' });
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([expect.stringMatching(/^npm start: Configuration: MCP_PAGE_SIZE/)]);
  });

  it('logs one line per request by default, none at POWERTOOLS_LOG_LEVEL=WARN, and stops on SIGTERM', async () => {
    const env = { PORT: '0', OFFLOAD_BUCKET: 'not-used-here' };
    const chatty = await start(env, ping);
    expect(chatty.stdout.filter((l) => l.includes('"message":"request"'))).toHaveLength(1);
    const quiet = await start({ ...env, POWERTOOLS_LOG_LEVEL: 'WARN' }, ping);
    expect(quiet.stdout.filter((l) => l.includes('"message":"request"'))).toHaveLength(0);
    expect(quiet.stdout.map((l) => JSON.parse(l).message)).toEqual(['listening', 'stopping']);
    expect(quiet.code).toBe(0);
  });
});
