import { describe, expect, it } from 'vitest';
import { classify, type Outcome } from '../../src/load/classify.ts';
import {
  encodeHeaderValue,
  initializeRequest,
  mirroredParams,
  rpcNotification,
  toolCallRequest,
} from '../../src/load/mcp-request.ts';
import { parseLoadArgs, UsageError } from '../../src/load/options.ts';
import { summarize } from '../../src/load/run.ts';
import { MAX_SLICES, RunRecorder, timeline } from '../../src/load/samples.ts';

const URL_ARG = ['--url', 'http://127.0.0.1:3000/mcp'];

describe('load command options', () => {
  it('defaults to 10 connections for 10 s of handshake ping calls', () => {
    expect(parseLoadArgs(URL_ARG)).toEqual({
      kind: 'run',
      notices: [],
      options: {
        url: 'http://127.0.0.1:3000/mcp',
        tool: 'ping',
        args: {},
        connections: 10,
        durationS: 10,
        headers: {},
        era: 'handshake',
        initialize: false,
        timeoutS: 10,
        json: false,
      },
    });
  });

  it('reads every option', () => {
    const parsed = parseLoadArgs([
      ...URL_ARG,
      '--tool',
      'safe_divide',
      '--args',
      '{"a":1,"b":2}',
      '--connections',
      '4',
      '--amount',
      '100',
      '--era',
      'stateless',
      '--protocol-version',
      '2026-07-28',
      '--initialize',
      '--token',
      'secret',
      '--header',
      'X-Trace: abc',
      '--timeout',
      '5',
      '--json',
      '--report',
      'load.html',
    ]);
    expect(parsed).toEqual({
      kind: 'run',
      notices: [],
      options: {
        url: 'http://127.0.0.1:3000/mcp',
        tool: 'safe_divide',
        args: { a: 1, b: 2 },
        connections: 4,
        durationS: 10,
        amount: 100,
        token: 'secret',
        headers: { 'x-trace': 'abc' },
        era: 'stateless',
        protocolVersion: '2026-07-28',
        initialize: true,
        timeoutS: 5,
        json: true,
        report: { path: 'load.html', format: 'html' },
      },
    });
  });

  it.each([
    ['the default 10 connections', ['--amount', '5'], 10],
    ['more connections than requests', ['--amount', '5', '--connections', '8'], 8],
  ])('lowers %s to an --amount below them, and says so', (_name, argv, asked) => {
    const parsed = parseLoadArgs([...URL_ARG, ...argv]);
    expect(parsed).toMatchObject({
      kind: 'run',
      options: { amount: 5, connections: 5 },
      notices: [`--amount 5 is below ${asked} connections: using 5 connections`],
    });
  });

  it('keeps the connections when --amount is at least as large', () => {
    expect(parseLoadArgs([...URL_ARG, '--amount', '4', '--connections', '4'])).toMatchObject({
      options: { amount: 4, connections: 4 },
      notices: [],
    });
  });

  it.each([
    ['report.html', 'html'],
    ['out/REPORT.HTM', 'html'],
    ['report.svg', 'svg'],
  ])('writes --report %s as %s', (path, format) => {
    expect(parseLoadArgs([...URL_ARG, '--report', path])).toMatchObject({
      options: { report: { path, format } },
    });
  });

  it('answers --help with the usage text', () => {
    expect(parseLoadArgs(['--help'])).toEqual({ kind: 'help' });
  });

  it.each([
    ['no --url', [], /--url is required/],
    ['a URL that is not one', ['--url', 'not a url'], /--url is not a URL/],
    ['a non-HTTP URL', ['--url', 'ftp://127.0.0.1/mcp'], /must be http or https/],
    ['a tool name with spaces', [...URL_ARG, '--tool', 'a b'], /--tool must be/],
    ['arguments that are not JSON', [...URL_ARG, '--args', '{a:1}'], /--args must be JSON/],
    ['arguments that are an array', [...URL_ARG, '--args', '[1]'], /--args must be a JSON object/],
    [
      'zero connections',
      [...URL_ARG, '--connections', '0'],
      /--connections must be an integer from 1 to 1000/,
    ],
    ['fractional connections', [...URL_ARG, '--connections', '1.5'], /--connections must be an integer/],
    [
      'an endless duration',
      [...URL_ARG, '--duration', '99999'],
      /--duration must be a number from 1 to 3600/,
    ],
    ['an empty amount', [...URL_ARG, '--amount', ''], /--amount must be an integer/],
    ['an unknown era', [...URL_ARG, '--era', 'future'], /--era must be handshake or stateless/],
    [
      'a malformed revision',
      [...URL_ARG, '--protocol-version', 'latest'],
      /--protocol-version must look like/,
    ],
    ['a header without a colon', [...URL_ARG, '--header', 'nope'], /--header must look like/],
    ['an empty token', [...URL_ARG, '--token', ' '], /--token must not be empty/],
    ['an unknown option', [...URL_ARG, '--rps', '5'], /Unknown option/],
    [
      'both --amount and --duration',
      [...URL_ARG, '--amount', '50', '--duration', '5'],
      /--amount and --duration both say when to stop: give one/,
    ],
    [
      'an option given twice',
      [...URL_ARG, '--connections', '2', '--connections', '4'],
      /--connections is given more than once/,
    ],
    [
      'a token and an Authorization header',
      [...URL_ARG, '--token', 't', '--header', 'Authorization: Bearer u'],
      /--token and --header "Authorization: …" both set the Authorization header/,
    ],
    [
      'a version header beside --protocol-version',
      [...URL_ARG, '--header', 'MCP-Protocol-Version: 2025-06-18'],
      /--header cannot set MCP-Protocol-Version: use --protocol-version/,
    ],
    [
      'a mirrored parameter header',
      [...URL_ARG, '--header', 'Mcp-Param-Region: eu'],
      /--header cannot set Mcp-Param-Region/,
    ],
    ['a length header', [...URL_ARG, '--header', 'Content-Length: 5'], /--header cannot set Content-Length/],
    [
      'a report that is neither HTML nor SVG',
      [...URL_ARG, '--report', 'load.pdf'],
      /--report must name a .html or .svg file/,
    ],
    ['an option without its value', ['--url'], /Option '--url <value>' argument missing/],
  ])('rejects %s', (_name, argv, message) => {
    expect(() => parseLoadArgs(argv as string[])).toThrow(UsageError);
    expect(() => parseLoadArgs(argv as string[])).toThrow(message);
  });

  it('says what is wrong in one line, with a long value cut short', () => {
    const messages = [
      ['--url', '--json'],
      [...URL_ARG, '--args', `{${'x'.repeat(10_000)}`],
    ].map((argv) => {
      try {
        parseLoadArgs(argv);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    });
    expect(messages[0]).toMatch(/^Option '--url' argument is ambiguous\. Did you forget/);
    for (const message of messages) {
      expect(message).not.toContain('\n');
      expect(message.length).toBeLessThan(250);
    }
  });
});

describe('MCP requests of the load command', () => {
  it('sends a handshake tools/call with the version header and no envelope', () => {
    const request = toolCallRequest('ping', {}, { era: 'handshake', headers: { Authorization: 'Bearer t' } });
    expect(request.headers).toEqual({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: 'Bearer t',
    });
    expect(JSON.parse(request.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'ping', arguments: {} },
    });
  });

  it('sends a 2026-07-28 tools/call with the _meta envelope and mirrored headers', () => {
    const request = toolCallRequest('search', { region: 'eu-west-1', limit: 5 }, { era: 'stateless' }, [
      { name: 'Region', path: ['region'] },
      { name: 'Limit', path: ['limit'] },
      { name: 'Absent', path: ['missing'] },
    ]);
    expect(request.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'search',
      'mcp-param-region': 'eu-west-1',
      'mcp-param-limit': '5',
    });
    expect(request.headers).not.toHaveProperty('mcp-param-absent');
    expect(JSON.parse(request.body).params._meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'mcp-load', version: '1.0.0' },
    });
  });

  it('sends initialize without a version header, and notifications without an id', () => {
    const init = initializeRequest({});
    expect(init.headers).not.toHaveProperty('mcp-protocol-version');
    expect(JSON.parse(init.body).params.protocolVersion).toBe('2025-11-25');
    const note = rpcNotification('notifications/initialized', {}, { era: 'handshake' });
    expect(JSON.parse(note.body)).not.toHaveProperty('id');
  });

  it.each([
    ['plain ASCII', 'get_weather', 'get_weather'],
    ['inner spaces', 'a b', 'a b'],
    ['non-ASCII', 'météo', '=?base64?bcOpdMOpbw==?='],
    ['a leading space', ' x', '=?base64?IHg=?='],
    ['an empty value', '', '=?base64??='],
    ['a value that looks wrapped', '=?base64?x?=', '=?base64?PT9iYXNlNjQ/eD89?='],
  ])('encodes a header value with %s', (_name, value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });

  it('finds x-mcp-header declarations through properties only', () => {
    expect(
      mirroredParams({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          options: { type: 'object', properties: { mode: { type: 'string', 'x-mcp-header': 'Mode' } } },
          list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Nope' } },
        },
      }),
    ).toEqual([
      { name: 'Region', path: ['region'] },
      { name: 'Mode', path: ['options', 'mode'] },
    ]);
  });
});

const JSON_TYPE = 'application/json';
const result = (body: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, result: body });

describe('classifying answers to tools/call', () => {
  it.each<[string, number, string, string, Outcome, string | undefined]>([
    ['a result', 200, JSON_TYPE, result({ content: [{ type: 'text', text: 'pong' }] }), 'ok', undefined],
    [
      'an isError result',
      200,
      JSON_TYPE,
      result({ content: [{ type: 'text', text: 'b must not be 0' }], isError: true }),
      'tool-error',
      'isError: b must not be 0',
    ],
    [
      'a JSON-RPC error in a 200',
      200,
      JSON_TYPE,
      JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool: x' } }),
      'rpc-error',
      '-32602 Unknown tool: x',
    ],
    [
      'a 400 carrying a JSON-RPC error',
      400,
      JSON_TYPE,
      JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'Header mismatch' } }),
      'non-2xx',
      'HTTP 400 (-32020 Header mismatch)',
    ],
    ['a gateway error', 502, JSON_TYPE, '{"message":"Internal Server Error"}', 'non-2xx', 'HTTP 502'],
    [
      'an SSE stream with a notification before the result',
      200,
      'text/event-stream',
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n' +
        `event: message\ndata: ${result({ content: [] })}\n\n`,
      'ok',
      undefined,
    ],
    [
      'a body that is not JSON',
      200,
      JSON_TYPE,
      '<html>',
      'malformed',
      'HTTP 200, not a JSON-RPC response: <html>',
    ],
    ['a result without content', 200, JSON_TYPE, result({}), 'malformed', 'result has no content array: {}'],
    [
      'an input_required result',
      200,
      JSON_TYPE,
      result({ resultType: 'input_required', inputRequests: {} }),
      'malformed',
      'input_required: the tool asks the client for input, which a load test cannot give',
    ],
  ])('tells %s apart', (_name, status, type, body, outcome, detail) => {
    const answer = classify(status, type, body);
    expect(answer.outcome).toBe(outcome);
    expect(answer.detail).toBe(detail);
  });
});

describe('recording a load run', () => {
  const TARGET = {
    url: 'http://127.0.0.1:1/mcp',
    tool: 'ping',
    era: 'handshake' as const,
    protocolVersion: '2025-11-25',
    connections: 5,
  };

  it('computes the rate of an --amount run from the real elapsed time, not whole seconds', () => {
    // 50 answers ending over 40 ms: the old whole-second duration reported "50 req/s".
    const recorder = new RunRecorder();
    for (let i = 0; i < 50; i++) recorder.record(2 + (i * 38) / 49, 'ok', 2);
    const report = summarize(recorder, TARGET);
    expect(report.durationS).toBe(0.04);
    expect(report.requestsPerSecond).toBe(1250);
    expect(report.requests).toBe(50);
  });

  it('keeps sub-second precision on longer runs', () => {
    // 3,000 answers over 1.5 s: 2,000 req/s, where rounding up to 2 s gave 1,500.
    const recorder = new RunRecorder();
    for (let i = 1; i <= 3000; i++) recorder.record(i / 2, 'ok', 4);
    expect(summarize(recorder, TARGET)).toMatchObject({ durationS: 1.5, requestsPerSecond: 2000 });
  });

  it('counts requests without an answer as failures, not in the rate', () => {
    const recorder = new RunRecorder();
    for (let i = 1; i <= 8; i++) recorder.record(i * 100, 'ok', 3);
    recorder.record(900, 'timeout', undefined, 'no answer within 10 s');
    recorder.record(1000, 'transport-error', undefined, 'ECONNRESET');
    const report = summarize(recorder, TARGET);
    expect(report).toMatchObject({ requests: 8, errors: 2, timeouts: 1, passed: false, durationS: 1 });
    expect(report.requestsPerSecond).toBe(8);
    expect(recorder.details).toEqual({ timeout: 'no answer within 10 s', 'transport-error': 'ECONNRESET' });
  });

  it('reports percentiles never below the exact value and at most 2 % above it', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const latencies = Array.from({ length: 5000 }, () => 0.3 + -Math.log(1 - random()) * 6);
    const recorder = new RunRecorder();
    latencies.forEach((ms, i) => recorder.record(i, 'ok', ms));
    const sorted = [...latencies].sort((a, b) => a - b);
    for (const p of [1, 50, 90, 99, 99.9, 100]) {
      const exact = sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
      const reported = recorder.latency.percentile(p);
      expect(reported).toBeGreaterThanOrEqual(exact);
      expect(reported).toBeLessThanOrEqual(exact * 1.02);
    }
    expect(recorder.latency.maxMs).toBe(sorted.at(-1));
  });

  it('stays bounded on a long run: slices widen instead of multiplying', () => {
    const recorder = new RunRecorder();
    const hours = 2;
    const total = 200_000;
    for (let i = 0; i < total; i++) recorder.record((i / total) * hours * 3_600_000, 'ok', 1 + (i % 5000));
    expect(recorder.slices.length).toBeLessThanOrEqual(MAX_SLICES);
    expect(recorder.sliceMs).toBeGreaterThanOrEqual((hours * 3_600_000) / MAX_SLICES);
    expect(recorder.latency.buckets.size).toBeLessThan(600);
    expect(recorder.slices.reduce((sum, s) => sum + s.counts.ok, 0)).toBe(total);
    expect(recorder.slices.reduce((sum, s) => sum + s.latency.count, 0)).toBe(total);
  });

  it('shows at most 60 slices, each with enough answers, and no sliver at the end', () => {
    const recorder = new RunRecorder();
    for (let i = 0; i <= 10_200; i++) recorder.record(i, 'ok', 1);
    const shown = timeline(recorder);
    expect(shown.length).toBeLessThanOrEqual(60);
    expect(shown.reduce((sum, s) => sum + s.counts.ok, 0)).toBe(10_201);
    expect(shown[0]!.startS).toBe(0);
    expect(shown.at(-1)!.endS).toBe(10.2);
    const width = shown[0]!.endS - shown[0]!.startS;
    expect(shown.at(-1)!.endS - shown.at(-1)!.startS).toBeGreaterThanOrEqual(width / 2);

    const sparse = new RunRecorder();
    for (let i = 0; i < 30; i++) sparse.record(i * 300, 'ok', 1);
    expect(timeline(sparse).every((s) => s.counts.ok >= 20 || s === timeline(sparse).at(-1))).toBe(true);
  });
});
