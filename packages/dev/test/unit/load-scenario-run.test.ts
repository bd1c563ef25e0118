import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLoadArgs } from '../../src/load/options.ts';
import { PreflightError } from '../../src/load/preflight.ts';
import { runScenario } from '../../src/load/scenario/run.ts';
import type { ScenarioOptions } from '../../src/load/scenario/types.ts';
import { startStub } from './scenario-stub.ts';

/**
 * Scenario runs against a scripted MCP server on loopback (scenario-stub.ts): what each kind of step sends, how its
 * answers are checked, what a failed step does to its flow run, and where the bearer token comes from.
 */

let stub: Awaited<ReturnType<typeof startStub>>;
const folder = mkdtempSync(join(tmpdir(), 'load-scenario-run-'));
beforeAll(async () => {
  stub = await startStub();
});
afterAll(async () => {
  await stub.close();
  rmSync(folder, { recursive: true, force: true });
});

let files = 0;
/** The options of `--scenario` for a scenario of these flows, one run of each by default. */
function options(
  flows: unknown[],
  extra: Record<string, unknown> = {},
  argv: string[] = [],
): ScenarioOptions {
  const path = join(folder, `scenario-${files++}.json`);
  writeFileSync(path, JSON.stringify({ era: 'stateless', flows, ...extra }));
  const amount = ['--connections', '1', '--amount', String(flows.length)];
  const parsed = parseLoadArgs(['--url', stub.url, '--scenario', path, ...(argv.length ? argv : amount)]);
  if (parsed.kind !== 'scenario') throw new Error('not a scenario run');
  return parsed.options;
}

const figures = (report: Awaited<ReturnType<typeof runScenario>>) =>
  report.flows.flatMap((flow) =>
    flow.steps.map((s) => [
      `${flow.name}/${s.step}`,
      s.count,
      s.requests,
      s.failures,
      s.outcomes['tool-error'],
    ]),
  );

describe('every kind of step', () => {
  it('runs and checks each, counting the requests a step sent', async () => {
    stub.received.length = 0;
    const report = await runScenario(
      options([
        {
          name: 'all',
          steps: [
            { kind: 'tools/list' },
            { kind: 'tools/call', tool: 'big' },
            { kind: 'read_output', pages: 5, count: 10 },
            { kind: 'task', tool: 'slow_job' },
            {
              kind: 'ask',
              tool: 'confirm',
              answers: { 'ask-0': { action: 'accept', content: { n: '{{index}}' } } },
              answer: { action: 'decline' },
            },
            { kind: 'tools/call', tool: 'mirror', arguments: { region: 'eu' } },
          ],
        },
      ]),
    );
    expect(report.flows[0]!.runs.samples).toEqual({});
    expect(report.passed).toBe(true);
    // A 30-byte output read 10 bytes a page ends after 3 pages; the task is polled until its third poll.
    expect(figures(report)).toEqual([
      ['all/tools/list', 1, 1, 0, 0],
      ['all/tools/call big', 1, 1, 0, 0],
      ['all/read_output', 1, 3, 0, 0],
      ['all/task slow_job', 1, 4, 0, 0],
      ['all/ask confirm', 1, 3, 0, 0],
      ['all/tools/call mirror', 1, 1, 0, 0],
    ]);
    const reads = stub.received
      .filter((r) => r.params?.name === 'read_output')
      .map((r) => r.params.arguments);
    expect(reads).toEqual([
      { uri: 'mcp-output://o/1', count: 10 },
      { uri: 'mcp-output://o/1', offset: 10, count: 10 },
      { uri: 'mcp-output://o/1', offset: 20, count: 10 },
    ]);
    const asks = stub.received.filter((r) => r.params?.name === 'confirm');
    expect(asks.map((r) => r.params._meta['io.modelcontextprotocol/clientCapabilities'])).toEqual(
      Array(3).fill({ elicitation: { form: {} } }),
    );
    expect(asks[2]!.params).toMatchObject({
      requestState: 's1',
      inputResponses: { 'ask-1': { action: 'decline' } },
    });
    expect(asks[1]!.params.inputResponses).toEqual({ 'ask-0': { action: 'accept', content: { n: 0 } } });
    const poll = stub.received.find((r) => r.method === 'tasks/get')!;
    expect(poll.headers['mcp-name']).toBe('t1');
    expect(poll.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    expect(stub.received.find((r) => r.params?.name === 'mirror')!.headers['mcp-param-region']).toBe('eu');
  });

  it('opens a session in the handshake era and sends it with every step', async () => {
    stub.received.length = 0;
    const report = await runScenario(
      options([
        {
          name: 'old',
          era: 'handshake',
          steps: [{ kind: 'tools/list' }, { kind: 'tools/call', tool: 'ping' }],
        },
      ]),
    );
    expect(figures(report)).toEqual([
      ['old/initialize', 1, 2, 0, 0],
      ['old/tools/list', 1, 1, 0, 0],
      ['old/tools/call ping', 1, 1, 0, 0],
    ]);
    // The preflight's session and the flow run's own: after initialize, every request names its session.
    const sent = stub.received.slice(-4);
    expect(sent.map((r) => r.method)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
      'tools/call',
    ]);
    expect(
      sent.slice(1).map((r) => [r.headers['mcp-session-id'], r.headers['mcp-protocol-version']]),
    ).toEqual(Array(3).fill(['sess-1', '2025-06-18']));
  });
});

describe('a step that fails', () => {
  it('is filed by its kind, and ends its flow run; an isError result does not', async () => {
    const report = await runScenario(
      options([
        {
          name: 'rpc',
          steps: [
            { kind: 'tools/call', tool: 'fails' },
            { kind: 'tools/call', tool: 'ping' },
          ],
        },
        { name: 'http', steps: [{ kind: 'tools/call', tool: 'broken' }] },
        {
          name: 'iserror',
          steps: [
            { kind: 'tools/call', tool: 'tool_error' },
            { kind: 'tools/call', tool: 'ping' },
          ],
        },
        { name: 'nolink', steps: [{ kind: 'tools/call', tool: 'ping' }, { kind: 'read_output' }] },
        { name: 'noanswer', steps: [{ kind: 'ask', tool: 'confirm' }] },
      ]),
    );
    expect(report.passed).toBe(false);
    expect(figures(report)).toEqual([
      ['rpc/tools/call fails', 1, 1, 1, 0],
      ['rpc/tools/call ping', 0, 0, 0, 0],
      ['http/tools/call broken', 1, 1, 1, 0],
      ['iserror/tools/call tool_error', 1, 1, 0, 1],
      ['iserror/tools/call ping', 1, 1, 0, 0],
      ['nolink/tools/call ping', 1, 1, 0, 0],
      ['nolink/read_output', 1, 0, 1, 0],
      ['noanswer/ask confirm', 1, 1, 1, 0],
    ]);
    const samples = report.flows.map((flow) => flow.runs.samples);
    expect(samples).toEqual([
      { 'rpc-error': '-32602 bad arguments' },
      { 'non-2xx': 'HTTP 500' },
      {},
      { malformed: 'no step of this flow run has received a resource_link to read' },
      { malformed: 'the call asks ask-0, which the step has no answer for' },
    ]);
    expect(report.steps.outcomes).toMatchObject({
      ok: 2,
      'tool-error': 1,
      'rpc-error': 1,
      'non-2xx': 1,
      malformed: 2,
    });
  });

  it('stops the run before the load when the server does not list a tool', async () => {
    const error = await runScenario(
      options([{ name: 'x', steps: [{ kind: 'tools/call', tool: 'nope' }] }]),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as Error).message).toMatch(/^the server does not list "nope" \(it lists: ping, big, /);
  });
});

describe('the open model of a scenario', () => {
  it('starts the flow runs the schedule holds, picked by weight', async () => {
    const flows = [
      { name: 'a', weight: 3, steps: [{ kind: 'tools/call', tool: 'ping' }] },
      { name: 'b', steps: [{ kind: 'tools/list' }] },
    ];
    const report = await runScenario(options(flows, {}, ['--rate', '20', '--duration', '1']));
    expect(report).toMatchObject({ model: 'open', flowRuns: 20, passed: true });
    expect(report.open).toMatchObject({ planned: 20, scheduled: 20, started: 20, notStarted: 0 });
    expect(report.flows.map((f) => f.runs.count)).toEqual([15, 5]);
  });
});

describe('the bearer token of a scenario', () => {
  const ping = [{ name: 'p', steps: [{ kind: 'tools/call', tool: 'ping' }] }];

  it.each([
    [
      'a file',
      () => {
        const path = join(folder, 'token.txt');
        writeFileSync(path, 'tok-1\n');
        return { type: 'file', path };
      },
    ],
    ['a command', () => ({ type: 'command', command: 'echo tok-1' })],
  ])('is read from %s, once', async (_name, auth) => {
    const guarded = await startStub('tok-1');
    try {
      const parsed = options(ping, { auth: auth() });
      const report = await runScenario({ ...parsed, url: guarded.url });
      expect(report.passed).toBe(true);
    } finally {
      await guarded.close();
    }
  });

  it('is granted to client credentials by a token endpoint, once, with the secret from the environment', async () => {
    const grants: { authorization?: string; body: string }[] = [];
    const endpoint = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        grants.push({ authorization: req.headers.authorization, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'tok-2', token_type: 'Bearer', expires_in: 300 }));
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const guarded = await startStub('tok-2');
    process.env.LOAD_TEST_SECRET = 's3cr:t';
    try {
      const tokenUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/token`;
      const auth = {
        type: 'client-credentials',
        tokenUrl,
        clientId: 'load client',
        secretEnv: 'LOAD_TEST_SECRET',
        scope: 'mcp',
      };
      const parsed = options([...ping, ...ping.map((f) => ({ ...f, name: 'q' }))], { auth });
      expect((await runScenario({ ...parsed, url: guarded.url })).passed).toBe(true);
      expect(grants).toEqual([
        {
          authorization: `Basic ${Buffer.from('load+client:s3cr%3At').toString('base64')}`,
          body: 'grant_type=client_credentials&scope=mcp',
        },
      ]);
    } finally {
      delete process.env.LOAD_TEST_SECRET;
      await guarded.close();
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }
  });
});
