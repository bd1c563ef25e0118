/**
 * Runs one child process of the benchmark and collects the JSON line it writes to file descriptor 3. Children get
 * a clean, Lambda-like environment (no inherited NODE_OPTIONS or loaders), so what is timed is the bundle alone.
 */
import { spawn } from 'node:child_process';

/** How children are started. */
export interface ChildRuntime {
  /** The Node binary (the Lambda runtime's major version when available). */
  node: string;
  /** Node flags, as the functions' NODE_OPTIONS sets them in Lambda. */
  execArgv: readonly string[];
}

/** The environment Lambda gives a function, reduced to what these bundles read. */
export function lambdaEnvironment(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_LAMBDA_FUNCTION_NAME: 'bench',
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...extra,
  };
}

/** Runs `node CHILD ...args` and resolves with the parsed fd-3 report; rejects after `timeoutMs`. */
export function runProbe<T>(
  runtime: ChildRuntime,
  child: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const proc = spawn(runtime.node, [...runtime.execArgv, child, ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    const report: Buffer[] = [];
    const stderr: Buffer[] = [];
    proc.stdio[3]!.on('data', (chunk: Buffer) => report.push(chunk));
    proc.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${child} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    proc.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    proc.on('close', (code) => {
      clearTimeout(timer);
      const text = Buffer.concat(report).toString('utf8');
      if (code !== 0 || text === '') {
        const why = Buffer.concat(stderr).toString('utf8').trim().split('\n').slice(-3).join(' | ');
        reject(new Error(`${child} exited with ${code}${why ? `: ${why}` : ''}`));
        return;
      }
      resolve(JSON.parse(text) as T);
    });
  });
}
