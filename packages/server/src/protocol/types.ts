/**
 * MCP wire types, named as in the specification schema (the specification's schema of each revision).
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

interface JSONRPCResultResponse {
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

/** Name and display name shared by tools, prompts, resources and implementations (schema: `BaseMetadata`). */
export interface BaseMetadata {
  name: string;
  title?: string;
}

/** Optional icons of a listed item (schema: `Icons`). */
export interface Icons {
  icons?: Icon[];
}

export interface Implementation extends BaseMetadata, Icons {
  version: string;
  description?: string;
  websiteUrl?: string;
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

export interface ResourceLink extends Resource {
  type: 'resource_link';
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

export interface Tool extends BaseMetadata, Icons {
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: JSONObject;
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JSONObject;
}

export interface Resource extends BaseMetadata, Icons {
  uri: string;
  description?: string;
  mimeType?: string;
  /** Raw byte count of the resource. */
  size?: number;
  annotations?: Annotations;
  _meta?: JSONObject;
}

export interface ResourceTemplate extends Omit<Resource, 'uri' | 'size'> {
  uriTemplate: string;
}

export interface PromptArgument extends BaseMetadata {
  description?: string;
  required?: boolean;
}

export interface Prompt extends BaseMetadata, Icons {
  description?: string;
  arguments?: PromptArgument[];
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
  /** Extensions the server supports, by identifier (e.g. `io.modelcontextprotocol/tasks`). */
  extensions?: Record<string, JSONObject>;
}

/** Log levels in increasing severity (RFC 5424 names, as the schema lists them). */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** Whether a value is one of the logging levels. */
export const isLoggingLevel = (value: unknown): value is LoggingLevel =>
  (LOGGING_LEVELS as readonly unknown[]).includes(value);

/** Cache hint carried by cacheable results in the 2026-07-28 revision. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}
