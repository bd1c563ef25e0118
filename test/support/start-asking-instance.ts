import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LocalDynamo } from '@mcp-lambda/dev/testing';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./asking-instance.ts', import.meta.url));

/** One running asking instance: its process and the URL of its MCP endpoint. */
export interface AskingInstance {
  child: ChildProcess;
  url: string;
}

/**
 * Starts one streaming instance (asking-instance.ts) in a process of its own, as Lambda runs each instance, on the
 * rendezvous table of `dynamo`, its session ids sealed with `sessionKey`, and resolves once it listens. Instances
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
      ASK_TABLE: dynamo.tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SESSION_KEY: sessionKey,
      ...(options.streamLogAfterMs !== undefined
        ? { STREAM_LOG_AFTER_MS: String(options.streamLogAfterMs) }
        : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the asking instance exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolve({ child, url: (JSON.parse(line) as { url: string }).url }),
    );
  });
}
