import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { start } from '../support/npm-start.ts';

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

/** The `ports` of the "listening" line. */
const listeningPorts = (run: { stdout: string[] }) =>
  run.stdout.map((line) => JSON.parse(line)).find((line) => line.message === 'listening')?.ports;

describe('npm start', () => {
  it('a busy port: one line on stderr, exit status 1, and the embedded S3 never started', async () => {
    const run = await start({ PORT: String(busyPort), OFFLOAD_BUCKET: undefined });
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([
      expect.stringMatching(new RegExp(`^npm start: PORT ${busyPort} .*already in use`)),
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

  it('every port has a setting: LOCAL_LAMBDA_PORT and LOCAL_S3_PORT pin the stand-ins, and the listening line names each', async () => {
    const [s3, lambda] = [await freePort(), await freePort()];
    const run = await start(
      { PORT: '0', LOCAL_S3_PORT: String(s3), LOCAL_LAMBDA_PORT: String(lambda) },
      ping,
    );
    expect(run.code).toBe(0);
    expect(listeningPorts(run)).toEqual({
      PORT: expect.any(Number),
      LOCAL_S3_PORT: s3,
      LOCAL_LAMBDA_PORT: lambda,
    });
    expect(run.stderr).toEqual([]);
  });

  it('a busy LOCAL_LAMBDA_PORT: one line on stderr naming it, and exit status 1', async () => {
    const run = await start({
      PORT: '0',
      LOCAL_LAMBDA_PORT: String(busyPort),
      OFFLOAD_BUCKET: 'not-used-here',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([
      expect.stringMatching(new RegExp(`^npm start: LOCAL_LAMBDA_PORT ${busyPort} .*already in use`)),
    ]);
  });

  it.each([
    ['LOCAL_OIDC_PORT', 'eighty', /^npm start: LOCAL_OIDC_PORT must be an integer from 0 to 65535/],
    ['LOCAL_LAMBDA_PORT', '70000', /^npm start: LOCAL_LAMBDA_PORT must be an integer from 0 to 65535/],
    ['BRIDGE_CIMD_ALLOW_LOOPBACK', 'yes', /^npm start: BRIDGE_CIMD_ALLOW_LOOPBACK must be "true" or "false"/],
  ])('an invalid %s: one line on stderr naming it, and exit status 1', async (name, value, line) => {
    const run = await start({ PORT: '0', [name]: value });
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([expect.stringMatching(line)]);
  });
});

describe('npm start with local authorization (MCP_AUTH_MODE=oauth)', () => {
  it('LOCAL_OIDC_PORT pins the sign-in provider; start-up says once that its state is in memory, with no warning', async () => {
    const oidc = await freePort();
    const run = await start(
      { PORT: '0', MCP_AUTH_MODE: 'oauth', LOCAL_OIDC_PORT: String(oidc) },
      async () => {},
    );
    expect(run.code).toBe(0);
    expect(listeningPorts(run)).toMatchObject({ LOCAL_OIDC_PORT: oidc });
    const signIn = run.stdout.map((line) => JSON.parse(line)).find((line) => line.signInProvider);
    expect(signIn.signInProvider).toBe(`http://127.0.0.1:${oidc}`);
    expect(signIn.state).toMatch(/^in memory/);
    expect(run.stdout.join('\n').match(/in memory/g)).toHaveLength(1);
    expect(run.stderr).toEqual([]);
  });

  it('a busy LOCAL_OIDC_PORT: one line on stderr naming it, and exit status 1', async () => {
    const run = await start({ PORT: '0', MCP_AUTH_MODE: 'oauth', LOCAL_OIDC_PORT: String(busyPort) });
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([
      expect.stringMatching(new RegExp(`^npm start: LOCAL_OIDC_PORT ${busyPort} .*already in use`)),
    ]);
  });
});
