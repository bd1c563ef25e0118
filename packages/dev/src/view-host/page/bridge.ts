import type { Client } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

/**
 * Shows one tool call's view the way a host does: reads the view resource through the client, loads it into an
 * iframe sandboxed to scripts only (served by the host process with the view's Content-Security-Policy), connects
 * the official host side (`AppBridge`), and sends the call's input and result once the view is initialized. The
 * view's own tool calls go through `oncalltool`, which refuses tools hidden from views (SEP-1865 "Visibility").
 */

type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];
type Log = (kind: string, text: string) => void;

/** Theme variables of this host (SEP-1865 "Theming"), light and dark, so a view visibly follows them. */
const HOST_VARIABLES = {
  '--color-background-primary': 'light-dark(#fbfaf7, #1e1d1b)',
  '--color-background-secondary': 'light-dark(#f0eee9, #2a2926)',
  '--color-text-primary': 'light-dark(#1e1d1b, #f3f1ec)',
  '--color-text-secondary': 'light-dark(#5d5a53, #bdb8ae)',
  '--color-border-primary': 'light-dark(#d8d4cc, #45423d)',
  '--color-ring-primary': 'light-dark(#c2410c, #fb923c)',
  '--font-sans': 'system-ui, sans-serif',
  '--border-radius-sm': '6px',
};

/** What a shown view keeps: its bridge (to change the theme, to tear it down) and its frame. */
export interface ShownView {
  bridge: AppBridge;
  frame: HTMLIFrameElement;
}

const visibleToViews = (tool: Tool | undefined) => {
  const visibility = (tool?._meta?.ui as { visibility?: string[] } | undefined)?.visibility;
  return tool !== undefined && (visibility === undefined || visibility.includes('app'));
};

/** Loads a view document into a sandboxed frame; resolves once the frame is in the page. */
async function frameFor(client: Client, uri: string, box: HTMLElement): Promise<HTMLIFrameElement> {
  const read = await client.readResource({ uri });
  const content = read.contents[0] as
    { text?: string; blob?: string; mimeType?: string; _meta?: { ui?: { csp?: unknown } } } | undefined;
  if (!content || content.mimeType !== 'text/html;profile=mcp-app')
    throw new Error(`${uri} is not a view (text/html;profile=mcp-app)`);
  const html =
    content.text ??
    new TextDecoder().decode(Uint8Array.from(atob(content.blob ?? ''), (c) => c.charCodeAt(0)));
  const posted = await fetch('/frames', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ html, csp: content._meta?.ui?.csp }),
  });
  const { src } = (await posted.json()) as { src: string };
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = `View ${uri}`;
  frame.src = src;
  box.replaceChildren(frame);
  return frame;
}

/** Shows `tool`'s view for a call with `args`: the call runs while the view starts. */
export async function showView(
  client: Client,
  tools: Tool[],
  call: { tool: Tool; args: Record<string, unknown>; theme: 'light' | 'dark' },
  box: HTMLElement,
  log: Log,
): Promise<ShownView> {
  const uri = (call.tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  if (!uri) throw new Error(`${call.tool.name} has no view`);
  const frame = await frameFor(client, uri, box);
  const bridge = new AppBridge(
    client,
    { name: 'local-view-host', version: '1.0.0' },
    {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      updateModelContext: { text: {} },
      message: { text: {} },
    },
    {
      hostContext: {
        theme: call.theme,
        platform: 'web',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { maxHeight: 720 },
        styles: { variables: HOST_VARIABLES as never },
        toolInfo: { tool: call.tool as never },
      },
    },
  );
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  // After connect: connecting installs a forwarder of every tools/call, hidden tools included; this one checks.
  bridge.oncalltool = async (params) => {
    if (!visibleToViews(tools.find((t) => t.name === params.name)))
      throw new Error(`Tool ${params.name} is not callable from a view`);
    log('view called', `${params.name} ${JSON.stringify(params.arguments ?? {})}`);
    return (await client.callTool(params)) as never;
  };
  bridge.onupdatemodelcontext = async (params) => {
    log('model context', (params.content ?? []).map((b) => ('text' in b ? b.text : b.type)).join('\n'));
    return {};
  };
  bridge.onmessage = async (params) => {
    log('message', params.content.map((b) => ('text' in b ? b.text : b.type)).join('\n'));
    return {};
  };
  bridge.onopenlink = async ({ url }) => {
    window.open(url, '_blank', 'noopener');
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.min(height, 720)}px`;
  };
  const result = client.callTool({ name: call.tool.name, arguments: call.args });
  await initialized;
  await bridge.sendToolInput({ arguments: call.args });
  try {
    await bridge.sendToolResult((await result) as never);
    log('tool result', `${call.tool.name} answered`);
  } catch (error) {
    await bridge.sendToolCancelled({ reason: (error as Error).message });
    log('tool failed', (error as Error).message);
  }
  return { bridge, frame };
}
