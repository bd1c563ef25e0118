/**
 * MCP wire types, named as in the specification schema (`schema/<revision>/schema.ts`).
 * Only the shapes this server reads or writes are modelled; everything here is plain JSON.
 */

export type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };
export type JSONObject = { [key: string]: unknown };

/** JSON-RPC request id: a string or an integer (never null in a request). */
export type RequestId = string | number;

export interface JSONRPCRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JSONObject;
}

export interface JSONRPCNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JSONObject;
}

export interface JSONRPCResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JSONObject;
}

export interface JSONRPCErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export type Role = 'user' | 'assistant';

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JSONObject;
}

export interface ImageContent {
  type: 'image';
  /** Base64-encoded image bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JSONObject;
}

export interface AudioContent {
  type: 'audio';
  /** Base64-encoded audio bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JSONObject;
}

export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Raw byte count of the resource. */
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JSONObject;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JSONObject;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64-encoded bytes. */
  blob: string;
  _meta?: JSONObject;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JSONObject;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A JSON Schema (2020-12) object; kept open because any keyword is allowed. */
export type JsonSchema = { [key: string]: unknown };

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JSONObject;
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JSONObject;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JSONObject;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JSONObject;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: JSONObject;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JSONObject;
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JSONObject;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { listChanged?: boolean; subscribe?: boolean };
  prompts?: { listChanged?: boolean };
  logging?: JSONObject;
  completions?: JSONObject;
}

export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Cache hint carried by cacheable results in the 2026-07-28 revision. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}
