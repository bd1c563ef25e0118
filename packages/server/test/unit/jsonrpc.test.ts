import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from '../../src/protocol/errors.ts';
import { isValidRequestId, parseMessage } from '../../src/protocol/jsonrpc.ts';

/**
 * One row per message shape (one message per POST, -32700 for invalid JSON, string or integer ids; JSON-RPC 2.0
 * "Request object").
 */
const rows: {
  name: string;
  body: string;
  kind: 'request' | 'notification' | 'response' | 'invalid';
  code?: number;
  id?: string | number | null;
}[] = [
  { name: 'a request with an integer id', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}', kind: 'request' },
  { name: 'a request with a string id', body: '{"jsonrpc":"2.0","id":"a","method":"ping"}', kind: 'request' },
  {
    name: 'a request with object params',
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}',
    kind: 'request',
  },
  {
    name: 'a notification (no id member)',
    body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    kind: 'notification',
  },
  { name: 'a client result response', body: '{"jsonrpc":"2.0","id":1,"result":{}}', kind: 'response' },
  {
    name: 'a client error response with a null id',
    body: '{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"x"}}',
    kind: 'response',
  },
  { name: 'invalid JSON', body: '{"jsonrpc":', kind: 'invalid', code: ErrorCode.ParseError, id: null },
  { name: 'an empty body', body: '', kind: 'invalid', code: ErrorCode.ParseError, id: null },
  {
    name: 'a batch array',
    body: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: null,
  },
  { name: 'a JSON string', body: '"ping"', kind: 'invalid', code: ErrorCode.InvalidRequest, id: null },
  { name: 'JSON null', body: 'null', kind: 'invalid', code: ErrorCode.InvalidRequest, id: null },
  {
    name: 'a wrong jsonrpc version (the readable id is echoed)',
    body: '{"jsonrpc":"1.0","id":7,"method":"ping"}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: 7,
  },
  {
    name: 'a missing method (the readable id is echoed)',
    body: '{"jsonrpc":"2.0","id":"x"}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: 'x',
  },
  {
    name: 'an empty method',
    body: '{"jsonrpc":"2.0","id":2,"method":""}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: 2,
  },
  {
    name: 'a non-string method',
    body: '{"jsonrpc":"2.0","id":2,"method":5}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: 2,
  },
  {
    name: 'array params',
    body: '{"jsonrpc":"2.0","id":3,"method":"ping","params":[]}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: 3,
  },
  {
    name: 'null params',
    body: '{"jsonrpc":"2.0","id":3,"method":"ping","params":null}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: 3,
  },
  {
    name: 'a null id',
    body: '{"jsonrpc":"2.0","id":null,"method":"ping"}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: null,
  },
  {
    name: 'a fractional id',
    body: '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: null,
  },
  {
    name: 'a boolean id',
    body: '{"jsonrpc":"2.0","id":true,"method":"ping"}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: null,
  },
  {
    name: 'an object id',
    body: '{"jsonrpc":"2.0","id":{},"method":"ping"}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: null,
  },
  {
    name: 'an id beyond the safe integer range',
    body: '{"jsonrpc":"2.0","id":1e20,"method":"ping"}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: null,
  },
  {
    name: 'a response without an id',
    body: '{"jsonrpc":"2.0","result":{}}',
    kind: 'invalid',
    code: ErrorCode.InvalidRequest,
    id: null,
  },
];

describe('parseMessage', () => {
  it.each(rows)('classifies $name', ({ body, kind, code, id }) => {
    const parsed = parseMessage(body);
    expect(parsed.kind).toBe(kind);
    if (parsed.kind === 'invalid') {
      expect(parsed.error.code).toBe(code);
      expect(parsed.id).toBe(id);
    }
  });

  it('keeps the request as sent', () => {
    const parsed = parseMessage('{"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"name":"x"}}');
    expect(parsed).toEqual({
      kind: 'request',
      message: { jsonrpc: '2.0', id: 'r', method: 'tools/call', params: { name: 'x' } },
    });
  });
});

describe('request ids', () => {
  it.each([
    [1, true],
    [0, true],
    [-3, true],
    ['', true],
    ['abc', true],
    [1.5, false],
    [null, false],
    [true, false],
    [{}, false],
    [[], false],
    [Number.MAX_SAFE_INTEGER + 2, false],
  ])('%j is a valid request id: %s', (id, valid) => {
    expect(isValidRequestId(id)).toBe(valid);
  });
});

describe('McpError.toResponse', () => {
  it('carries code, message and data', () => {
    expect(new McpError(ErrorCode.InvalidParams, 'bad', { uri: 'x' }).toResponse(4)).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32602, message: 'bad', data: { uri: 'x' } },
    });
  });

  it('omits data when there is none', () => {
    expect(new McpError(ErrorCode.MethodNotFound, 'nope').toResponse(null)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32601, message: 'nope' },
    });
  });
});
