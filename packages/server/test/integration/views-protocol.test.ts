import { describe, expect, it } from 'vitest';
import { defineTool, defineView, staticResources } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { statelessHeaders, statelessMeta, send } from '@mcp-lambda/dev/testing';

/**
 * MCP Apps (SEP-1865) on the wire, in both eras: the extension in the capabilities, tools linking views through
 * `_meta.ui`, and `resources/read` of a `ui://` URI answered by the server itself with one HTML document.
 */

const DOCUMENT = '<!doctype html><html><head><title>Chart</title></head><body><p>chart</p></body></html>';
let loads = 0;
const chartView = defineView({
  uri: 'ui://fixture/chart',
  name: 'chart',
  title: 'Chart',
  description: 'An interactive chart.',
  prefersBorder: true,
  html: async () => {
    loads++;
    return DOCUMENT;
  },
});
const lonelyView = defineView({
  uri: 'ui://fixture/lonely',
  name: 'lonely',
  html: () => '<!doctype html><p>x',
});

const tools = [
  defineTool({
    name: 'chart',
    description: 'Draws a chart.',
    view: chartView,
    handler: () => 'A chart of 3 values (the view shows it interactively).',
  }),
  defineTool({
    name: 'chart_refresh',
    description: 'Refreshes the chart (called by the view).',
    view: chartView,
    visibility: ['app'],
    handler: () => 'refreshed',
  }),
  defineTool({ name: 'plain', description: 'No view.', handler: () => 'plain' }),
];

const server = createMcpServer({
  info: { name: 'views-fixture', version: '1.0.0' },
  tools,
  views: [lonelyView],
  listCache: { ttlMs: 60_000, cacheScope: 'public' },
  resources: [staticResources([{ uri: 'docs://x', name: 'x', read: () => 'x' }])],
});

const handshake = (method: string, params: Record<string, unknown> = {}) =>
  send(server, { body: { jsonrpc: '2.0', id: 1, method, params } });
const stateless = (method: string, params: Record<string, unknown> = {}, name?: string) =>
  send(server, {
    headers: statelessHeaders(method, name),
    body: { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: statelessMeta() } },
  });

const ERAS = [
  { era: 'handshake (2025-11-25)', call: handshake },
  { era: '2026-07-28', call: stateless },
] as const;

describe('the server declares the io.modelcontextprotocol/ui extension', () => {
  it('initialize names it with the content type of its views', async () => {
    const res = await send(server, {
      headers: { 'mcp-protocol-version': undefined },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    });
    expect(res.json.result.capabilities.extensions).toEqual({
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    });
    expect(res.json.result.capabilities.resources).toEqual({});
  });

  it('server/discover names it too', async () => {
    const res = await stateless('server/discover');
    expect(res.json.result.capabilities.extensions['io.modelcontextprotocol/ui']).toEqual({
      mimeTypes: ['text/html;profile=mcp-app'],
    });
  });

  it('a server without views declares no such extension', async () => {
    const bare = createMcpServer({ info: { name: 'bare', version: '1' }, tools: [tools[2]!] });
    const res = await send(bare, {
      headers: statelessHeaders('server/discover'),
      body: { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: statelessMeta() } },
    });
    expect(res.json.result.capabilities.extensions).toBeUndefined();
    expect(res.json.result.capabilities.resources).toBeUndefined();
  });
});

describe.each(ERAS)('views over $era', ({ call }) => {
  it('tools/list links the view in _meta.ui (and the deprecated flat key), visibility only where set', async () => {
    const res = await call('tools/list');
    const byName = Object.fromEntries(res.json.result.tools.map((t: any) => [t.name, t]));
    expect(byName.chart._meta).toEqual({
      ui: { resourceUri: 'ui://fixture/chart' },
      'ui/resourceUri': 'ui://fixture/chart',
    });
    expect(byName.chart_refresh._meta.ui).toEqual({ resourceUri: 'ui://fixture/chart', visibility: ['app'] });
    expect(byName.plain._meta).toBeUndefined();
  });

  it('tools/list is the same bytes whatever the caller declares', async () => {
    const withUi = await send(server, {
      headers: statelessHeaders('tools/list'),
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            ...statelessMeta(),
            'io.modelcontextprotocol/clientCapabilities': {
              extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
            },
          },
        },
      },
    });
    const without = await stateless('tools/list');
    expect(withUi.body).toBe(without.body);
  });

  it('resources/read of a ui:// URI answers the whole document as text/html;profile=mcp-app', async () => {
    const res = await call('resources/read', { uri: 'ui://fixture/chart' }, 'ui://fixture/chart');
    expect(res.status).toBe(200);
    expect(res.json.result.contents).toEqual([
      {
        uri: 'ui://fixture/chart',
        mimeType: 'text/html;profile=mcp-app',
        text: DOCUMENT,
        _meta: { ui: { prefersBorder: true } },
      },
    ]);
  });

  it('resources/list lists every view with its _meta.ui, beside the other resources', async () => {
    const res = await call('resources/list');
    const uris = res.json.result.resources.map((r: any) => r.uri);
    expect(uris).toEqual(['ui://fixture/lonely', 'ui://fixture/chart', 'docs://x']);
    expect(res.json.result.resources[1]).toEqual({
      uri: 'ui://fixture/chart',
      name: 'chart',
      title: 'Chart',
      description: 'An interactive chart.',
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { prefersBorder: true } },
    });
  });

  it('an unknown ui:// URI is not found', async () => {
    const res = await call('resources/read', { uri: 'ui://fixture/nope' }, 'ui://fixture/nope');
    expect(res.json.error.code).toBe(call === handshake ? -32002 : -32602);
  });
});

describe('caching and loading', () => {
  it('2026-07-28 reads carry the cache hint; the handshake era carries none', async () => {
    const m = await stateless('resources/read', { uri: 'ui://fixture/chart' }, 'ui://fixture/chart');
    expect(m.json.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
    const l = await handshake('resources/read', { uri: 'ui://fixture/chart' });
    expect(l.json.result.ttlMs).toBeUndefined();
    expect(l.json.result.cacheScope).toBeUndefined();
  });

  it('a document is loaded once per container, on its first read', async () => {
    await handshake('resources/read', { uri: 'ui://fixture/chart' });
    await handshake('resources/read', { uri: 'ui://fixture/chart' });
    expect(loads).toBe(1);
  });

  it('a document that fails to load is an internal error, tried again on the next read', async () => {
    let attempts = 0;
    const flaky = defineView({
      uri: 'ui://fixture/flaky',
      name: 'flaky',
      html: async () => {
        if (attempts++ === 0) throw new Error('build missing');
        return '<!doctype html><p>ok';
      },
    });
    const s = createMcpServer({ info: { name: 'f', version: '1' }, views: [flaky] });
    const read = () =>
      send(s, {
        body: { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'ui://fixture/flaky' } },
      });
    expect((await read()).json.error.code).toBe(-32603);
    expect((await read()).json.result.contents[0].text).toBe('<!doctype html><p>ok');
  });
});

describe('declarations that could only fail later are refused at start-up', () => {
  const info = { name: 'bad', version: '1' };
  const view = (over: Record<string, unknown>) =>
    defineView({ uri: 'ui://a/b', name: 'b', html: () => 'x', ...over });
  it.each([
    ['a uri outside ui://', view({ uri: 'https://example.com/view' }), /ui:\/\//],
    ['no name', view({ name: '' }), /no name/],
    ['no html loader', view({ html: '<p>' }), /html must be a function/],
  ])('%s', (_label, bad, message) => {
    expect(() => createMcpServer({ info, views: [bad] })).toThrow(message);
  });

  // Checked on first use (no cold-start cost): the views are then never served, and the log says why.
  it.each([
    ['a csp source that is not an origin', view({ csp: { connectDomains: ["'unsafe-eval'"] } })],
    ['an unknown permission', view({ permissions: { usb: {} } })],
  ])('%s: no view is served', async (_label, bad) => {
    const s = createMcpServer({ info, views: [bad] });
    const read = await send(s, {
      body: { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'ui://a/b' } },
    });
    expect(read.json.error.code).toBe(-32603);
  });

  it('two declarations of one URI', () => {
    expect(() => createMcpServer({ info, views: [view({}), view({})] })).toThrow(/declared twice/);
  });

  it('a visibility outside model and app', () => {
    const tool = defineTool({
      name: 't',
      description: 't',
      visibility: ['user' as never],
      handler: () => 'x',
    });
    expect(() => createMcpServer({ info, tools: [tool] })).toThrow(/visibility/);
  });
});
