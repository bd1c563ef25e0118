/**
 * A scaffolded app as its user drives it: `npm start` in its folder, JSON-RPC over plain HTTP to the endpoint it
 * prints, and the app's own files (what the user wrote or the scaffolder did, not what npm or a run makes).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_HEADERS } from '@mcp-lambda/dev/testing';

export interface Started {
  url: string;
  stop(): Promise<void>;
}

/**
 * `npm start` in `app`: resolves with the endpoint once its "listening" line is out. The server runs in a process
 * group of its own, stopped as a whole (npm, the runner and its stand-ins).
 */
export function startApp(app: string, env: NodeJS.ProcessEnv): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['start', '--silent'], {
      cwd: app,
      env: { ...env, PORT: '0', LOCAL_LAMBDA_PORT: '0', LOCAL_S3_PORT: '0', POWERTOOLS_LOG_LEVEL: 'WARN' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(
      () => fail(new Error('npm start printed no "listening" line in 120 s')),
      120_000,
    );
    const stop = () =>
      new Promise<void>((stopped) => {
        if (child.exitCode !== null || child.signalCode !== null) return stopped();
        child.once('close', () => stopped());
        process.kill(-child.pid!, 'SIGTERM');
      });
    const fail = (error: Error) => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`${error.message}\n${output.slice(-4000)}`));
    };
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      pending += chunk.toString('utf8');
      // Whole lines only: a chunk may end inside one.
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const message = JSON.parse(line) as { message?: string; url?: string };
        if (message.message !== 'listening') continue;
        clearTimeout(timer);
        return resolve({ url: message.url!, stop });
      }
    });
    child.on('close', (code) => fail(new Error(`npm start exited with ${code}`)));
  });
}

/** One JSON-RPC request without a session, as README's curl sends it; its `result`, or it throws. */
export async function rpc(url: string, method: string, params: Record<string, unknown>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: BASE_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: Record<string, any>; error?: unknown };
  if (!body.result) throw new Error(`${method}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
  return body.result;
}

/** Folders a run or npm writes into, never the user: the scaffolded .gitignore's, less nothing. */
const MADE = new Set(['node_modules', 'cdk.out', 'dist', 'results', '.local', '.cdk-home', 'coverage']);

/**
 * The app's own files and a hash of each: everything but what npm and the runs make (the folders above, and the
 * lock file, where npm records the versions it installed).
 */
export function appFiles(app: string, dir = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(join(app, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!MADE.has(entry.name)) Object.assign(files, appFiles(app, path));
    } else if (path !== 'package-lock.json' && !entry.name.includes('.tmp.')) {
      files[path] = createHash('sha256')
        .update(readFileSync(join(app, path)))
        .digest('hex');
    }
  }
  return files;
}
