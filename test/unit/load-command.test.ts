import { describe, expect, it } from 'vitest';
import { classify, type Outcome } from '../load/classify.ts';
import {
  encodeHeaderValue,
  initializeRequest,
  mirroredParams,
  rpcNotification,
  toolCallRequest,
} from '../load/mcp-request.ts';
import { parseLoadArgs, UsageError } from '../load/options.ts';

const URL_ARG = ['--url', 'http://127.0.0.1:3000/mcp'];

describe('load command options', () => {
  it('defaults to 10 connections for 10 s of legacy ping calls', () => {
    expect(parseLoadArgs(URL_ARG)).toEqual({
      kind: 'run',
      options: {
        url: 'http://127.0.0.1:3000/mcp',
        tool: 'ping',
        args: {},
        connections: 10,
        durationS: 10,
        headers: {},
        era: 'legacy',
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
      '--duration',
      '2.5',
      '--amount',
      '100',
      '--era',
      'modern',
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
    ]);
    expect(parsed).toEqual({
      kind: 'run',
      options: {
        url: 'http://127.0.0.1:3000/mcp',
        tool: 'safe_divide',
        args: { a: 1, b: 2 },
        connections: 4,
        durationS: 2.5,
        amount: 100,
        token: 'secret',
        headers: { 'x-trace': 'abc' },
        era: 'modern',
        protocolVersion: '2026-07-28',
        initialize: true,
        timeoutS: 5,
        json: true,
      },
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
    ['an unknown era', [...URL_ARG, '--era', 'future'], /--era must be legacy or modern/],
    [
      'a malformed revision',
      [...URL_ARG, '--protocol-version', 'latest'],
      /--protocol-version must look like/,
    ],
    ['a header without a colon', [...URL_ARG, '--header', 'nope'], /--header must look like/],
    ['an empty token', [...URL_ARG, '--token', ' '], /--token must not be empty/],
    ['an unknown option', [...URL_ARG, '--rate', '5'], /Unknown option/],
  ])('rejects %s', (_name, argv, message) => {
    expect(() => parseLoadArgs(argv as string[])).toThrow(UsageError);
    expect(() => parseLoadArgs(argv as string[])).toThrow(message);
  });
});

describe('MCP requests of the load command', () => {
  it('sends a legacy tools/call with the version header and no envelope', () => {
    const request = toolCallRequest('ping', {}, { era: 'legacy', headers: { Authorization: 'Bearer t' } });
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
    const request = toolCallRequest('search', { region: 'eu-west-1', limit: 5 }, { era: 'modern' }, [
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
    const note = rpcNotification('notifications/initialized', {}, { era: 'legacy' });
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
