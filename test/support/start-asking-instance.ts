import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LocalDynamo } from '@mcp-lambda/dev/testing';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./asking-instance.ts', import.meta.url));
/** How long an instance may take to listen; past it, it is killed and the start fails, never hangs. */
const START_TIMEOUT_MS = 30_000;

/** One running asking instance: its process and the URL of its MCP endpoint. */
export interface AskingInstance {
  child: ChildProcess;
  url: string;
}

/**
 * Starts one streaming instance (asking-instance.ts) in a process of its own, as Lambda runs each instance, on the
 * call state's table in `dynamo`, its session ids sealed with `sessionKey`, and resolves once it listens. Instances
 * started with the same table and key answer for one another, as a deployment's instances do. `streamLogAfterMs`
 * sets when a stream starts its log and a call watches for its cancellation (default 10 s).
 */
export function startAskingInstance(
  dynamo: LocalDynamo,
  sessionKey: string,
  options: { streamLogAfterMs?: number } = {},
): Promise<AskingInstance> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      CALL_STATE_TABLE: dynamo.tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SESSION_KEY: sessionKey,
      ...(options.streamLogAfterMs !== undefined
        ? { STREAM_LOG_AFTER_MS: String(options.streamLogAfterMs) }
        : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the asking instance did not listen within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the asking instance ${signal ? `was killed by ${signal}` : `exited with ${code}`}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`the asking instance could not start: ${error.message}`));
    });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve({ child, url: (JSON.parse(line) as { url: string }).url });
      } catch {
        child.kill('SIGKILL');
        reject(new Error(`the asking instance said ${JSON.stringify(line)}, not its URL`));
      }
    });
  });
}

/**
 * `error` as a caller reports it: when `instance` has ended meanwhile, the message says so first, as the likely
 * cause of whatever failed.
 */
export function withInstanceEnd(instance: AskingInstance | undefined, error: unknown): unknown {
  const child = instance?.child;
  if (!child || (child.exitCode === null && child.signalCode === null)) return error;
  const how = child.signalCode ? `was killed by ${child.signalCode}` : `exited with ${child.exitCode}`;
  return new Error(`the asking instance ${how}: ${error instanceof Error ? error.message : String(error)}`);
}
