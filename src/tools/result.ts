import type { CallToolResult, ContentBlock, JSONObject } from '../protocol/types.ts';

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

/** Checks one content block's required fields (spec: schema ContentBlock); returns what is wrong, if anything. */
export function contentBlockProblem(block: unknown): string | undefined {
  if (!isObject(block) || typeof block.type !== 'string' || !BLOCK_TYPES.has(block.type)) {
    return 'a content block must have type text, image, audio, resource_link or resource';
  }
  const str = (key: string) => typeof block[key] === 'string';
  switch (block.type) {
    case 'text':
      return str('text') ? undefined : 'a text block needs a string "text"';
    case 'image':
    case 'audio':
      return str('data') && str('mimeType')
        ? undefined
        : `an ${block.type} block needs base64 "data" and "mimeType"`;
    case 'resource_link':
      return str('uri') && str('name') ? undefined : 'a resource_link block needs "uri" and "name"';
    default: {
      const r = block.resource;
      return isObject(r) &&
        typeof r.uri === 'string' &&
        (typeof r.text === 'string' || typeof r.blob === 'string')
        ? undefined
        : 'a resource block needs resource.uri and resource.text or resource.blob';
    }
  }
}

const isBlock = (v: unknown): v is ContentBlock =>
  isObject(v) && typeof v.type === 'string' && BLOCK_TYPES.has(v.type);

/**
 * Turns whatever a handler returned into a CallToolResult (spec: tools, "Tool Result"):
 * a string becomes a text block; a block or block array becomes `content`; an object with a `content` array is a
 * full result; any other object is structured content, serialized into a text block as the spec recommends;
 * other JSON values (numbers, arrays of non-blocks) become text only.
 */
export function toCallToolResult(value: unknown): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (Array.isArray(value) && value.every(isBlock)) return { content: value };
  if (isBlock(value)) return { content: [value] };
  if (isObject(value) && Array.isArray(value.content)) return value as unknown as CallToolResult;
  if (value === undefined || value === null) return { content: [] };
  const text = JSON.stringify(value);
  if (text === undefined) return { content: [] };
  // Handshake-era schemas type structuredContent as an object: only a value that serializes to one carries it.
  return text.startsWith('{')
    ? { content: [{ type: 'text', text }], structuredContent: value }
    : { content: [{ type: 'text', text }] };
}

/** Builds an `isError` result with text the model can act on. */
export function toolErrorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
