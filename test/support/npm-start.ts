/** `npm start` as a user runs it: a child process, its output lines and its exit status. */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Run {
  stdout: string[];
  stderr: string[];
  code: number | null;
  /** The signal that ended it, when one did (its exit code is then null). */
  signal: NodeJS.Signals | null;
}

/** How a run ended and its last lines, for a failed check's message: why it did not exit as expected. */
export const ending = (run: Run): string =>
  [`exit code ${run.code}, signal ${run.signal}`, ...run.stdout.slice(-5), ...run.stderr.slice(-10)].join(
    '\n',
  );

/** The development commands' bin, as the app's `npm start` calls it. */
export const DEV_BIN = join(root, 'node_modules', '.bin', 'mcp-lambda-dev');

/**
 * Runs `mcp-lambda-dev start` in the app's folder with `env`. With `use`, waits for the "listening" line, hands the endpoint URL and
 * the output lines so far (the start-up lines) to `use`, then stops the server with SIGTERM, as `kill` would.
 */
export function start(
  env: Record<string, string | undefined>,
  use?: (url: string, startup: readonly string[]) => Promise<void>,
): Promise<Run> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [DEV_BIN, 'start'], {
      cwd: root,
      // The embedded S3 keeps its data in the run's temporary folder, never in the checkout's .local/s3.
      env: {
        ...process.env,
        POWERTOOLS_LOG_LEVEL: undefined,
        LOCAL_S3_DIR: mkdtempSync(join(tmpdir(), 'npm-start-s3-')),
        ...env,
      },
    });
    const run: Run = { stdout: [], stderr: [], code: null, signal: null };
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        run.stdout.push(line);
        const message = JSON.parse(line) as { message?: string; url?: string };
        if (message.message === 'listening' && use)
          use(message.url!, [...run.stdout]).then(
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
    child.on('close', (code, signal) => done({ ...run, code, signal }));
  });
}
