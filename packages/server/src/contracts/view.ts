import type { CacheHint } from '../protocol/types.ts';

/**
 * Views (MCP Apps, SEP-1865, the extension `io.modelcontextprotocol/ui`): a tool names a `ui://` resource, and a host
 * that renders MCP Apps reads it and shows it, in a sandboxed iframe, with the tool's input and result. Hosts
 * without the extension ignore the link and show the tool's text as before (docs/views.md).
 */

/** The extension's id, declared in the server's capabilities (`initialize` and `server/discover`). */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The one content type of a view (SEP-1865 "UI Resource Format": MUST be exactly this). */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * Origins a view may reach besides its own document (SEP-1865 `McpUiResourceCsp`). Leave it out: a view that
 * inlines its script and style and fetches nothing works under the host's restrictive default policy everywhere.
 */
export interface ViewCsp {
  /** Origins for fetch, XHR and WebSocket (`connect-src`). */
  connectDomains?: readonly string[];
  /** Origins for scripts, styles, images, fonts and media. */
  resourceDomains?: readonly string[];
  /** Origins for nested iframes (`frame-src`). */
  frameDomains?: readonly string[];
  /** Allowed base URIs (`base-uri`). */
  baseUriDomains?: readonly string[];
}

/** Browser features a view asks for; hosts may grant them (SEP-1865 `permissions`). */
export interface ViewPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** What `_meta.ui` of a view resource says to the host (SEP-1865 `UIResourceMeta`). */
export interface ViewUiMeta {
  /** Origins the view needs; default none (the host's restrictive default policy). */
  csp?: ViewCsp;
  permissions?: ViewPermissions;
  /** A dedicated sandbox origin, in the host's own format (host-specific); default the host's. */
  domain?: string;
  /** Whether the host should draw a border and background around the view; say it, hosts' defaults differ. */
  prefersBorder?: boolean;
}

/** A view as a template user declares it. */
export interface ViewSpec extends ViewUiMeta {
  /** `ui://…`, unique within the server; tools link it by this URI. */
  uri: string;
  /** Short name for listings. */
  name: string;
  title?: string;
  description?: string;
  /**
   * The complete HTML document, loaded on the first read and kept for the container's life. Make it a dynamic
   * `import()` of the built view, so the document never enters the function's start-up graph.
   */
  html: () => string | Promise<string>;
  /** Cache hint of `resources/read` (2026-07-28); default the server's list cache hint. */
  cache?: CacheHint;
}

/** A declared view (see {@link defineView}). */
export type ViewDefinition = Readonly<ViewSpec>;

/** Who may call a tool (SEP-1865 `visibility`): the model, views of this server ("app"), or both (the default). */
export type ToolVisibility = 'model' | 'app';

/**
 * Declares a view: `defineView({ uri: 'ui://my-server/report', name: 'report', prefersBorder: true, html: async () =>
 * (await import('<your view>.generated.ts')).default })`, then link it from a tool with `view`.
 */
export function defineView(spec: ViewSpec): ViewDefinition {
  return Object.freeze({ ...spec });
}
