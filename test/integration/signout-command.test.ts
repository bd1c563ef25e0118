import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStore } from '@mcp-lambda/bridge';
import { startLocalDynamo, type LocalDynamo } from '@mcp-lambda/dev/testing';
import { DEV_BIN } from '../support/npm-start.ts';

/**
 * `npm run signout`, run as an operator runs it: against a DynamoDB table (dynalite standing in for the deployed
 * one, reached through the SDK's standard endpoint variable), with its usage and its answer.
 */

const run = promisify(execFile);
const SKEWED_CLOCK = new URL('../support/skewed-clock.mjs', import.meta.url).href;
let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startLocalDynamo('signout-command');
});
afterAll(async () => {
  await dynamo?.close();
});

const signout = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, ['--import', SKEWED_CLOCK, DEV_BIN, 'signout', ...args], {
    env: {
      ...process.env,
      ...env,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_REGION: 'us-east-1',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  }).then(
    (out) => ({ code: 0, ...out }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe('npm run signout', () => {
  it('records the sign-out in the bridge table and says what it does', async () => {
    const before = Math.floor(Date.now() / 1000);
    const out = await signout(['user-42', '--table', dynamo.tableName]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(
      /^Signed "user-42" out everywhere at .+: each of their sessions ends at its next refresh/,
    );
    const at = await createDynamoStore({
      tableName: dynamo.tableName,
      endpoint: dynamo.endpoint,
    }).signedOutAt('user-42', AbortSignal.timeout(5_000));
    expect(at).toBeGreaterThanOrEqual(before);
  });

  it.each([
    ['behind', -3_600_000],
    ['ahead', 3_600_000],
  ])("records the time by AWS's clock when this machine's is an hour %s", async (direction, skew) => {
    // Behind, the sessions begun in the last hour would survive; ahead, the next hour's sign-ins would end too.
    const before = Math.floor(Date.now() / 1000);
    const out = await signout([`user-${direction}`, '--table', dynamo.tableName], {
      MCP_TEST_CLOCK_SKEW_MS: String(skew),
    });
    expect(out.code).toBe(0);
    const at = await createDynamoStore({
      tableName: dynamo.tableName,
      endpoint: dynamo.endpoint,
    }).signedOutAt(`user-${direction}`, AbortSignal.timeout(5_000));
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
  });

  it.each([
    ['no subject', ['--table', 'x']],
    ['no table', ['user-42']],
    ['a table and --local at once', ['user-42', '--local', '--table', 'x']],
  ])('shows its usage for %s', async (_, args) => {
    const out = await signout(args);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('usage: npm run signout');
  });

  it('says what failed when the table is not there', async () => {
    const out = await signout(['user-42', '--table', 'no-such-table']);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^signout failed: /);
  });
});
