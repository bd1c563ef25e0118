import { describe, expect, it } from 'vitest';
import { checkStatelessHeaders, decodeHeaderValue } from '../../src/http/mcp-headers.ts';
import { ErrorCode } from '../../src/protocol/errors.ts';
import type { ParamHeader } from '../../src/tools/param-headers.ts';

const b64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('decodeHeaderValue (2026-07-28 Streamable HTTP, "Value Encoding")', () => {
  it.each([
    ['a plain ASCII value', 'us-west1', 'us-west1'],
    ['a plain value with inner spaces', 'a b', 'a b'],
    ['an empty value', '', ''],
    ['a wrapped non-ASCII value', '=?base64?SGVsbG8sIOS4lueVjA==?=', 'Hello, 世界'],
    ['a wrapped value with leading and trailing spaces', '=?base64?IHBhZGRlZCA=?=', ' padded '],
    ['a wrapped value with a newline', '=?base64?bGluZTEKbGluZTI=?=', 'line1\nline2'],
    [
      'a wrapped value that looks like the sentinel',
      '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=',
      '=?base64?literal?=',
    ],
    ['an empty wrapped value', '=?base64??=', ''],
    ['a value that only starts like the sentinel (plain)', '=?base64?abc', '=?base64?abc'],
  ])('decodes %s', (_name, raw, decoded) => {
    expect(decodeHeaderValue(raw)).toBe(decoded);
  });

  it.each([
    ['unpadded Base64', '=?base64?SGk?='],
    ['Base64 with characters outside the alphabet', '=?base64?SG!p?='],
    ['URL-safe Base64', '=?base64?-_-_?='],
    ['padding in the middle', '=?base64?SG=pSGk=?='],
    ['Base64 of bytes that are not UTF-8', `=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`],
    ['a plain value with a non-ASCII character', 'Zürich'],
    ['a plain value with a control character', 'a\u0001b'],
    ['a plain value with DEL', 'a\u007fb'],
  ])('refuses %s', (_name, raw) => {
    expect(decodeHeaderValue(raw)).toBeUndefined();
  });

  it('wraps round-trip any text', () => {
    for (const text of ['x', 'é', '🙂 emoji', '\t tab', 'a'.repeat(100)])
      expect(decodeHeaderValue(b64(text))).toBe(text);
  });
});

const REGION: ParamHeader = { path: ['region'], name: 'Region', type: 'string' };
const COUNT: ParamHeader = { path: ['opts', 'count'], name: 'Count', type: 'integer' };
const DRY: ParamHeader = { path: ['dry'], name: 'Dry', type: 'boolean' };
const declared = (tool: string) => (tool === 'route' ? [REGION, COUNT, DRY] : []);

const CALL = (args: Record<string, unknown>, name = 'route') => ({
  method: 'tools/call',
  params: { name, arguments: args },
});
const HEADERS = (extra: Record<string, string> = {}) => ({
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'route',
  ...extra,
});

type Row = {
  name: string;
  headers: Record<string, string>;
  message?: { method: string; params?: Record<string, unknown> };
  request?: boolean;
  header?: string;
};

/** One row per header rule of the 2026-07-28 Streamable HTTP transport; `header` names the one refused (-32020). */
const rows: Row[] = [
  { name: 'matching standard headers pass', headers: HEADERS() },
  {
    name: 'a missing MCP-Protocol-Version is refused',
    headers: { 'mcp-method': 'tools/call', 'mcp-name': 'route' },
    header: 'MCP-Protocol-Version',
  },
  {
    name: 'a mismatched MCP-Protocol-Version is refused',
    headers: HEADERS({ 'mcp-protocol-version': '2025-11-25' }),
    header: 'MCP-Protocol-Version',
  },
  {
    name: 'header values are trimmed of surrounding spaces',
    headers: HEADERS({ 'mcp-method': ' tools/call ' }),
  },
  {
    name: 'a missing Mcp-Method is refused',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-name': 'route' },
    header: 'Mcp-Method',
  },
  {
    name: 'a mismatched Mcp-Method is refused',
    headers: HEADERS({ 'mcp-method': 'tools/list' }),
    header: 'Mcp-Method',
  },
  {
    name: 'Mcp-Method values are case-sensitive',
    headers: HEADERS({ 'mcp-method': 'Tools/Call' }),
    header: 'Mcp-Method',
  },
  {
    name: 'a missing Mcp-Name on tools/call is refused',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
    header: 'Mcp-Name',
  },
  { name: 'a mismatched Mcp-Name is refused', headers: HEADERS({ 'mcp-name': 'other' }), header: 'Mcp-Name' },
  { name: 'a Base64-wrapped Mcp-Name is decoded', headers: HEADERS({ 'mcp-name': b64('route') }) },
  {
    name: 'a malformed Base64 Mcp-Name is refused',
    headers: HEADERS({ 'mcp-name': '=?base64?cm91dGU?=' }),
    header: 'Mcp-Name',
  },
  {
    name: 'Mcp-Name mirrors params.uri on resources/read',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': 'docs://a' },
    message: { method: 'resources/read', params: { uri: 'docs://a' } },
  },
  {
    name: 'a mismatched Mcp-Name on resources/read is refused',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': 'docs://b' },
    message: { method: 'resources/read', params: { uri: 'docs://a' } },
    header: 'Mcp-Name',
  },
  {
    name: 'Mcp-Name is required on prompts/get',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'prompts/get' },
    message: { method: 'prompts/get', params: { name: 'p' } },
    header: 'Mcp-Name',
  },
  {
    name: 'Mcp-Name is not required on tools/list',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    message: { method: 'tools/list', params: {} },
  },
  {
    name: 'a notification needs no headers',
    headers: {},
    message: { method: 'notifications/x' },
    request: false,
  },
  {
    name: 'a notification with a mismatched Mcp-Method is refused',
    headers: { 'mcp-method': 'notifications/y' },
    message: { method: 'notifications/x' },
    request: false,
    header: 'Mcp-Method',
  },
  {
    name: 'a notification with a mismatched version header is refused',
    headers: { 'mcp-protocol-version': '2025-06-18' },
    message: { method: 'notifications/x' },
    request: false,
    header: 'MCP-Protocol-Version',
  },
  {
    name: 'a matching Mcp-Param header passes',
    headers: HEADERS({ 'mcp-param-region': 'eu-west-1' }),
    message: CALL({ region: 'eu-west-1' }),
  },
  {
    name: 'a missing Mcp-Param header for a present argument is refused',
    headers: HEADERS(),
    message: CALL({ region: 'eu-west-1' }),
    header: 'Mcp-Param-Region',
  },
  {
    name: 'a mismatched Mcp-Param header is refused',
    headers: HEADERS({ 'mcp-param-region': 'us-east-1' }),
    message: CALL({ region: 'eu-west-1' }),
    header: 'Mcp-Param-Region',
  },
  {
    name: 'an Mcp-Param header for an absent argument is refused',
    headers: HEADERS({ 'mcp-param-region': 'eu-west-1' }),
    message: CALL({}),
    header: 'Mcp-Param-Region',
  },
  {
    name: 'no Mcp-Param header is expected for a null argument',
    headers: HEADERS(),
    message: CALL({ region: null }),
  },
  { name: 'no Mcp-Param header is expected for an absent argument', headers: HEADERS(), message: CALL({}) },
  {
    name: 'a Base64-wrapped Mcp-Param header is decoded',
    headers: HEADERS({ 'mcp-param-region': b64('Zürich ') }),
    message: CALL({ region: 'Zürich ' }),
  },
  {
    name: 'a plain Mcp-Param header with a non-ASCII character is refused',
    headers: HEADERS({ 'mcp-param-region': 'Zürich' }),
    message: CALL({ region: 'Zürich' }),
    header: 'Mcp-Param-Region',
  },
  {
    name: 'a nested integer parameter matches its decimal form',
    headers: HEADERS({ 'mcp-param-count': '42' }),
    message: CALL({ opts: { count: 42 } }),
  },
  {
    name: 'integers compare numerically (42.0 equals 42)',
    headers: HEADERS({ 'mcp-param-count': '42.0' }),
    message: CALL({ opts: { count: 42 } }),
  },
  {
    name: 'a different integer is refused',
    headers: HEADERS({ 'mcp-param-count': '43' }),
    message: CALL({ opts: { count: 42 } }),
    header: 'Mcp-Param-Count',
  },
  {
    name: 'booleans are mirrored in lower case',
    headers: HEADERS({ 'mcp-param-dry': 'true' }),
    message: CALL({ dry: true }),
  },
  {
    name: 'a boolean in other letter case is refused',
    headers: HEADERS({ 'mcp-param-dry': 'TRUE' }),
    message: CALL({ dry: true }),
    header: 'Mcp-Param-Dry',
  },
  {
    name: 'an argument of the wrong type is left to schema validation',
    headers: HEADERS({ 'mcp-param-dry': 'yes' }),
    message: CALL({ dry: { not: 'a boolean' } }),
  },
  {
    name: 'a method named like an Object.prototype member needs no Mcp-Name',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'constructor' },
    message: { method: 'constructor', params: {} },
  },
  {
    name: 'a method named __proto__ needs no Mcp-Name',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': '__proto__' },
    message: { method: '__proto__', params: {} },
  },
  {
    name: 'tools without declarations ignore Mcp-Param headers',
    headers: HEADERS({ 'mcp-name': 'plain', 'mcp-param-region': 'x' }),
    message: CALL({ region: 'y' }, 'plain'),
  },
];

describe('checkStatelessHeaders', () => {
  it.each(rows)('$name', ({ headers, message, request = true, header }) => {
    const problem = checkStatelessHeaders(headers, message ?? CALL({}), '2026-07-28', request, declared);
    if (!header) {
      expect(problem).toBeUndefined();
      return;
    }
    expect(problem?.code).toBe(ErrorCode.HeaderMismatch);
    expect(problem?.data).toEqual({ header });
  });
});
