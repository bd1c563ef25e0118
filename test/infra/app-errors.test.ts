import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCRATCH_HOME } from '@mcp-lambda/cdk/testing';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the CDK app as `cdk synth` does (context in CDK_CONTEXT_JSON), without bundling the functions. */
function app(context: Record<string, unknown>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'infra/app.ts'], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: SCRATCH_HOME,
      CDK_HOME: SCRATCH_HOME,
      CDK_OUTDIR: mkdtempSync(join(tmpdir(), 'cdk-app-errors-')),
      CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], ...context }),
    },
  });
  return { status: run.status, stderr: run.stderr.split('\n').filter(Boolean) };
}

describe('a wrong CDK context value stops the app with one line, no stack trace', () => {
  it.each([
    [
      'a context value the app cannot read',
      { api: 'bogus' },
      /^cdk: Context "api" must be "http" or "rest-streaming"/,
    ],
    [
      'props a construct refuses',
      { allowedOrigins: 'http://localhost:*' },
      /^cdk: McpHttpApi: allowed origin "http:\/\/localhost:\*" is not an exact origin/,
    ],
  ])('%s', (_name, context, line) => {
    const run = app(context);
    expect(run.status).toBe(1);
    expect(run.stderr).toEqual([expect.stringMatching(line)]);
  });
});
