/**
 * `@mcp-lambda/server/protocol`: the MCP wire types, named as in the specification schema. Audience: tool authors,
 * views and clients alike. Types only, from a module without imports, so browser code (a view, checked by
 * tsconfig.views.json) imports them as well as the functions do. Stable: they change with the specification.
 */

// ## Wire types, named as in the specification schema (stable)
export type {
  Annotations,
  AudioContent,
  BaseMetadata,
  BlobResourceContents,
  CacheHint,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  Icons,
  ImageContent,
  Implementation,
  JSONObject,
  JSONValue,
  JsonSchema,
  LoggingLevel,
  Prompt,
  PromptArgument,
  PromptMessage,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  Role,
  ServerCapabilities,
  TextContent,
  TextResourceContents,
  Tool,
  ToolAnnotations,
} from '../protocol/types.ts';
