import type {
  CallToolResult,
  ContentBlock,
  Implementation,
  JSONObject,
  ResourceContents,
} from '../../protocol/types.ts';

/**
 * The view ⇄ host protocol of MCP Apps (SEP-1865 "Communication Protocol"): JSON-RPC 2.0 over `postMessage`, the
 * view acting as a client of its host. Only what a view of this template sends and reads is modelled.
 */

/** The protocol revision of the view ⇄ host messages this client speaks (SEP-1865, stable 2026-01-26). */
export const VIEW_PROTOCOL_VERSION = '2026-01-26';

/** The host's light or dark theme. */
export type HostTheme = 'light' | 'dark';

/** What the host tells a view about where and how it is shown (SEP-1865 `HostContext`); every field optional. */
export interface HostContext {
  theme?: HostTheme;
  styles?: {
    /** The spec's CSS variables (`--color-background-primary`, `--font-sans`, …), values for this host. */
    variables?: Record<string, string | undefined>;
    css?: { fonts?: string };
  };
  displayMode?: 'inline' | 'fullscreen' | 'pip';
  availableDisplayModes?: string[];
  containerDimensions?: { width?: number; maxWidth?: number; height?: number; maxHeight?: number };
  locale?: string;
  timeZone?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  toolInfo?: { id?: string | number; tool: JSONObject };
  [key: string]: unknown;
}

/** The host's answer to `ui/initialize`. */
export interface InitializeResult {
  protocolVersion: string;
  hostInfo?: Implementation;
  hostCapabilities?: JSONObject;
  hostContext?: HostContext;
}

/** What `resources/read` answers through the host. */
export interface ReadResourceResult {
  contents: ResourceContents[];
}

/** What a view may add to the model's context for its next turn (`ui/update-model-context`). */
export interface ModelContextUpdate {
  content?: ContentBlock[];
  structuredContent?: JSONObject;
}

export type { CallToolResult, JSONObject };

/**
 * Methods the view sends and receives, by name (the spec's names, in one place): a const enum, so a view's bundle
 * holds each name where it is used, not a table of them all.
 */
export const enum ViewMethod {
  Initialize = 'ui/initialize',
  Initialized = 'ui/notifications/initialized',
  ToolInput = 'ui/notifications/tool-input',
  ToolInputPartial = 'ui/notifications/tool-input-partial',
  ToolResult = 'ui/notifications/tool-result',
  ToolCancelled = 'ui/notifications/tool-cancelled',
  HostContextChanged = 'ui/notifications/host-context-changed',
  SizeChanged = 'ui/notifications/size-changed',
  Teardown = 'ui/resource-teardown',
  UpdateModelContext = 'ui/update-model-context',
  Message = 'ui/message',
  OpenLink = 'ui/open-link',
  CallTool = 'tools/call',
  ReadResource = 'resources/read',
  Ping = 'ping',
}

/** A JSON-RPC error the host answered, with its code (the host's or the server's, passed through). */
export class ViewRequestError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ViewRequestError';
  }
}
