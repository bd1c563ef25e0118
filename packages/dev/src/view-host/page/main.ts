import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { showView, type ShownView } from './bridge.ts';
import './style.css';

/**
 * The local host page: lists the server's tools that have a view, calls one with the arguments given, and shows its
 * view (bridge.ts). `?tool=NAME&args=JSON&theme=dark` fills the form and calls at once (links and tests use it).
 */

const params = new URLSearchParams(location.search);
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text = '') => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.textContent = text;
  return e;
};

const toolSelect = el('select', { id: 'tool', 'aria-label': 'Tool' });
const args = el(
  'textarea',
  { id: 'args', rows: '3', 'aria-label': 'Arguments (JSON)' },
  params.get('args') ?? '{}',
);
const theme = el('select', { id: 'theme', 'aria-label': 'Theme' });
theme.append(el('option', { value: 'light' }, 'light'), el('option', { value: 'dark' }, 'dark'));
theme.value = params.get('theme') === 'dark' ? 'dark' : 'light';
const call = el('button', { id: 'call', type: 'button' }, 'Call');
const status = el('p', { id: 'status', role: 'status' }, 'Connecting…');
const box = el('div', { id: 'view' });
const log = el('ol', { id: 'log' });
document.body.append(
  el('h1', {}, 'Local MCP Apps host'),
  Object.assign(el('div', { class: 'form' }), {}),
  status,
  box,
  el('h2', {}, 'Host log'),
  log,
);
document.querySelector('.form')!.append(toolSelect, args, theme, call);
document.documentElement.dataset.theme = theme.value;

const note = (kind: string, text: string) => {
  const item = el('li', { 'data-kind': kind });
  item.append(el('strong', {}, `${kind}: `), text);
  log.append(item);
};

const client = new Client(
  { name: 'local-view-host', version: '1.0.0' },
  {
    capabilities: {
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    } as never,
  },
);
let tools: Awaited<ReturnType<Client['listTools']>>['tools'] = [];
let shown: ShownView | undefined;

async function run(): Promise<void> {
  const tool = tools.find((t) => t.name === toolSelect.value);
  if (!tool) return;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(args.value || '{}');
  } catch {
    status.textContent = 'The arguments are not JSON.';
    return;
  }
  call.disabled = true;
  status.textContent = `Calling ${tool.name}…`;
  try {
    await shown?.bridge.teardownResource({}).catch(() => undefined);
    shown = await showView(
      client,
      tools,
      { tool, args: parsed, theme: theme.value as 'light' | 'dark' },
      box,
      note,
    );
    status.textContent = `${tool.name}: shown`;
  } catch (error) {
    status.textContent = `${tool.name} failed: ${(error as Error).message}`;
  } finally {
    call.disabled = false;
  }
}

call.addEventListener('click', () => void run());
theme.addEventListener('change', () => {
  document.documentElement.dataset.theme = theme.value;
  shown?.bridge.setHostContext({ theme: theme.value as 'light' | 'dark' });
});

try {
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
  tools = (await client.listTools()).tools;
  const withViews = tools.filter((t) => {
    const ui = t._meta?.ui as { resourceUri?: string; visibility?: string[] } | undefined;
    return ui?.resourceUri && (ui.visibility === undefined || ui.visibility.includes('model'));
  });
  toolSelect.append(
    ...withViews.map((t) => el('option', { value: t.name }, t.title ? `${t.title} (${t.name})` : t.name)),
  );
  if (params.get('tool')) toolSelect.value = params.get('tool')!;
  status.textContent = `Connected to ${client.getServerVersion()?.name ?? 'the server'}: ${withViews.length} tools with a view.`;
  if (params.get('tool')) await run();
} catch (error) {
  status.textContent = `Could not reach the MCP server: ${(error as Error).message}`;
}
