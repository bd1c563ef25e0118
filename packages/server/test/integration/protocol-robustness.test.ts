import { describe, expect, it } from 'vitest';
import { defineTool, staticResources } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { MAX_RESULT_BYTES } from '../../src/tools/result.ts';
import { send } from '@mcp-lambda/dev/testing';

/** JSON text of an array nested `depth` levels deep (deeper than the limit is a Parse error: json-depth.test.ts). */
const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

const server = createMcpServer({
  info: { name: 'robust', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'flood',
      description: 'returns more text than one response can carry',
      handler: () => 'x'.repeat(MAX_RESULT_BYTES + 1),
    }),
  ],
  resources: [
    staticResources(
      [],
      [{ uriTemplate: 'file:///docs/{name}', name: 'doc', read: (vars) => `doc ${vars.name}` }],
    ),
  ],
  prompts: [{ name: 'greet', handler: () => 'hello' }],
});

const rpc = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 7, method, params });

describe('hostile or oversized input and output', () => {
  it('a cursor that is a deeply nested array is refused with -32602, without echoing it', async () => {
    const raw = `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":${nested(90)}}}`;
    const res = await send(server, { raw });
    expect(res.status).toBe(200);
    expect(res.json.error).toEqual({ code: -32602, message: 'Invalid params: unknown or expired cursor' });
  });

  it('a prompt name of the wrong type is named only by its type', async () => {
    const raw = `{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":${nested(90)}}}`;
    const res = await send(server, { raw });
    expect(res.json.error.code).toBe(-32602);
    expect(res.json.error.data).toEqual({ name: '(object)' });
  });

  it.each([
    ['a malformed percent escape', 'file:///docs/%E0%A4%A'],
    ['an encoded slash', 'file:///docs/..%2F..%2Fetc%2Fpasswd'],
    ['a dot segment', 'file:///docs/..'],
  ])('a template variable with %s names no resource (-32002)', async (_name, uri) => {
    const res = await send(server, { body: rpc('resources/read', { uri }) });
    expect(res.json.error).toMatchObject({ code: -32002, data: { uri } });
  });

  it('a template variable that is one plain segment is served', async () => {
    const res = await send(server, { body: rpc('resources/read', { uri: 'file:///docs/guide' }) });
    expect(res.json.result.contents[0].text).toBe('doc guide');
  });

  it('a result too large for one response is an isError result that says so, not a gateway failure', async () => {
    const res = await send(server, { body: rpc('tools/call', { name: 'flood' }) });
    expect(res.status).toBe(200);
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.content[0].text).toMatch(/too large to return in one response/);
    expect(res.body.length).toBeLessThan(2048);
  });
});

describe('resource links for 2025-03-26 clients', () => {
  const linking = createMcpServer({
    info: { name: 'links', version: '1.0.0' },
    tools: [
      defineTool({
        name: 'link',
        description: 'returns a link',
        handler: () => ({
          type: 'resource_link',
          uri: 'docs://server/about',
          name: 'about',
          mimeType: 'text/markdown',
          size: 42,
        }),
      }),
    ],
  });
  const callLink = (version: string | undefined) =>
    send(linking, {
      headers: { 'mcp-protocol-version': version },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'link' } },
    });

  it('a client that sends no version header (2025-03-26 has no resource_link) gets the link as text', async () => {
    const res = await callLink(undefined);
    expect(res.json.result.content).toEqual([
      {
        type: 'text',
        text: 'Resource "about" (docs://server/about, text/markdown, 42 bytes). Read it with resources/read.',
      },
    ]);
  });

  it.each(['2025-06-18', '2025-11-25'])(
    'a %s client gets the resource_link block itself',
    async (version) => {
      const res = await callLink(version);
      expect(res.json.result.content[0]).toMatchObject({ type: 'resource_link', uri: 'docs://server/about' });
    },
  );
});
