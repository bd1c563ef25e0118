import {
  VIEW_PROTOCOL_VERSION,
  ViewMethod,
  ViewRequestError,
  type CallToolResult,
  type HostContext,
  type InitializeResult,
  type JSONObject,
  type ModelContextUpdate,
  type ReadResourceResult,
} from './protocol.ts';
import { applyHostContext } from './theme.ts';

/** What a view does when the host tells it something; each optional. */
export interface ViewHandlers {
  /** The call's complete arguments (`ui/notifications/tool-input`), sent once, before the result. */
  onToolInput?(args: JSONObject): void;
  /** Arguments still being written by the model; never act on them (SEP-1865). */
  onToolInputPartial?(args: JSONObject): void;
  /** The call's result (`ui/notifications/tool-result`): what the view renders. */
  onToolResult?(result: CallToolResult): void;
  /** The call was cancelled; the view should say so rather than wait. */
  onToolCancelled?(reason: string | undefined): void;
  /** The host context changed (theme, size, display mode); theme and style variables are applied already. */
  onContextChanged?(context: HostContext): void;
  /** The host is about to remove the view: finish what must not be lost. */
  onTeardown?(reason: string | undefined): void | Promise<void>;
}

/** How to connect. */
export interface ConnectOptions extends ViewHandlers {
  /** The view's name and version, told to the host (`appInfo`). */
  name: string;
  version: string;
  /** How long a request to the host may take before it fails, in ms. Default 30,000. */
  timeoutMs?: number;
  /** Tell the host the document's size whenever it changes (hosts size the frame by it). Default true. */
  autoResize?: boolean;
}

/** A view's connection to its host: requests proxied to the MCP server, and to the host itself. */
export interface ViewConnection {
  /** The host context from `ui/initialize`, merged with every change since. */
  readonly context: HostContext;
  readonly hostCapabilities: JSONObject;
  /** Calls a tool of this view's server through the host (app-only tools included). */
  callTool(name: string, args?: JSONObject): Promise<CallToolResult>;
  /** Reads a resource of this view's server through the host. */
  readResource(uri: string): Promise<ReadResourceResult>;
  /** Gives the model context for its next turn (replaces what this view gave before). */
  updateModelContext(update: ModelContextUpdate): Promise<void>;
  /** Posts a message in the chat as the user. */
  sendMessage(text: string): Promise<void>;
  /** Asks the host to open a link for the user. */
  openLink(url: string): Promise<void>;
}

type Pending = {
  resolve(value: JSONObject): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
};

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** JSON-RPC over `postMessage` with the parent frame: requests with time limits, and what arrives, routed. */
function channel(host: Window, timeoutMs: number) {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  const post = (message: JSONObject) => host.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method: string, params: JSONObject = {}): Promise<JSONObject> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new ViewRequestError(`${method}: the host did not answer within ${timeoutMs} ms`, -32001));
      }, timeoutMs);
      pending.set(id, { resolve, reject, timer });
      post({ id, method, params });
    });
  const answer = (message: JSONObject) => {
    const entry = pending.get(message.id as number);
    if (!entry) return;
    pending.delete(message.id as number);
    clearTimeout(entry.timer);
    const error = message.error;
    if (isObject(error))
      entry.reject(
        new ViewRequestError(String(error.message ?? 'request failed'), Number(error.code), error.data),
      );
    else entry.resolve(isObject(message.result) ? message.result : {});
  };
  /** Starts listening: only the host frame speaks to a view; anything else (another frame, an extension) is ignored. */
  const listen = (
    onRequest: (id: unknown, method: string, params: JSONObject) => void | Promise<void>,
    onNotification: (method: string, params: JSONObject) => void,
  ) =>
    window.addEventListener('message', (event: MessageEvent) => {
      if (event.source !== host) return;
      const message: unknown = event.data;
      if (!isObject(message) || message.jsonrpc !== '2.0') return;
      const params = isObject(message.params) ? message.params : {};
      if (typeof message.method === 'string') {
        // A request whose handling fails is still answered: the host must not wait for it.
        if ('id' in message)
          void Promise.resolve(onRequest(message.id, message.method, params)).catch((error: unknown) =>
            post({
              id: message.id,
              error: { code: -32603, message: error instanceof Error ? error.message : 'failed' },
            }),
          );
        else onNotification(message.method, params);
      } else if ('id' in message) answer(message);
    });
  return { post, request, listen };
}

/**
 * Connects a view to its host: installs the message listener, sends `ui/initialize`, applies the host's theme and
 * style variables, then `ui/notifications/initialized`, after which the host sends the tool's input and result to
 * the handlers. A small client of the spec's messages, written for views that must stay small (docs/views.md says
 * why not the SDK's `App` class).
 */
export async function connectView(options: ConnectOptions): Promise<ViewConnection> {
  const { post, request, listen } = channel(window.parent, options.timeoutMs ?? 30_000);
  let context: HostContext = {};
  const changeContext = (change: HostContext) => {
    context = { ...context, ...change };
    applyHostContext(context);
    options.onContextChanged?.(context);
  };
  listen(
    async (id, method, params) => {
      if (method === ViewMethod.Teardown) await options.onTeardown?.(text(params.reason));
      if (method === ViewMethod.Teardown || method === ViewMethod.Ping) post({ id, result: {} });
      else post({ id, error: { code: -32601, message: `Method not found: ${method}` } });
    },
    (method, params) => {
      const args = isObject(params.arguments) ? params.arguments : {};
      if (method === ViewMethod.ToolInput) options.onToolInput?.(args);
      else if (method === ViewMethod.ToolInputPartial) options.onToolInputPartial?.(args);
      else if (method === ViewMethod.ToolResult) options.onToolResult?.(params as unknown as CallToolResult);
      else if (method === ViewMethod.ToolCancelled) options.onToolCancelled?.(text(params.reason));
      else if (method === ViewMethod.HostContextChanged) changeContext(params as HostContext);
    },
  );
  const init = (await request(ViewMethod.Initialize, {
    appInfo: { name: options.name, version: options.version },
    appCapabilities: { availableDisplayModes: ['inline'] },
    protocolVersion: VIEW_PROTOCOL_VERSION,
  })) as unknown as InitializeResult;
  changeContext(isObject(init.hostContext) ? init.hostContext : {});
  post({ method: ViewMethod.Initialized, params: {} });
  if (options.autoResize !== false) reportSize(post);
  return {
    get context() {
      return context;
    },
    hostCapabilities: isObject(init.hostCapabilities) ? init.hostCapabilities : {},
    callTool: async (name, args = {}) =>
      (await request(ViewMethod.CallTool, { name, arguments: args })) as unknown as CallToolResult,
    readResource: async (uri) =>
      (await request(ViewMethod.ReadResource, { uri })) as unknown as ReadResourceResult,
    updateModelContext: async (update) => void (await request(ViewMethod.UpdateModelContext, { ...update })),
    sendMessage: async (message) =>
      void (await request(ViewMethod.Message, { role: 'user', content: [{ type: 'text', text: message }] })),
    openLink: async (url) => void (await request(ViewMethod.OpenLink, { url })),
  };
}

/** Tells the host the document's size once a frame after each change (hosts size a flexible frame by it). */
function reportSize(post: (message: JSONObject) => void): void {
  let sent = '';
  let queued = false;
  const send = () => {
    queued = false;
    const root = document.documentElement;
    const width = Math.ceil(root.scrollWidth);
    const height = Math.ceil(root.scrollHeight);
    const size = `${width}x${height}`;
    if (size === sent) return;
    sent = size;
    post({ method: ViewMethod.SizeChanged, params: { width, height } });
  };
  new ResizeObserver(() => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(send);
    }
  }).observe(document.body);
  send();
}
