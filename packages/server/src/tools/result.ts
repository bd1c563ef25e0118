import { OutputLimits } from '../limits.ts';
import type { CallToolResult, ContentBlock } from '../protocol/types.ts';
import { isJsonObject } from '../protocol/json.ts';

const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

/** Checks one content block's required fields (spec: schema ContentBlock); returns what is wrong, if anything. */
export function contentBlockProblem(block: unknown): string | undefined {
  if (!isJsonObject(block) || typeof block.type !== 'string' || !BLOCK_TYPES.has(block.type)) {
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
      return isJsonObject(r) &&
        typeof r.uri === 'string' &&
        (typeof r.text === 'string' || typeof r.blob === 'string')
        ? undefined
        : 'a resource block needs resource.uri and resource.text or resource.blob';
    }
  }
}

const isBlock = (v: unknown): v is ContentBlock =>
  isJsonObject(v) && typeof v.type === 'string' && BLOCK_TYPES.has(v.type);

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
  if (isJsonObject(value) && Array.isArray(value.content)) return value as unknown as CallToolResult;
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

/**
 * Largest tool result a response can carry: Lambda returns at most 6 MB, and the result travels as JSON inside the
 * API Gateway envelope's JSON, so it is measured doubly escaped, with room left for the envelope.
 */
export const MAX_RESULT_BYTES = OutputLimits.maxResultBytes;

/** A cheap lower bound of a result's serialized size: the lengths of its payload strings. */
function payloadLength(result: CallToolResult): number {
  let length = 0;
  for (const block of result.content) {
    const b = block as unknown as Record<string, unknown> & { resource?: Record<string, unknown> };
    for (const value of [b.text, b.data, b.resource?.text, b.resource?.blob]) {
      if (typeof value === 'string') length += value.length;
    }
  }
  return length;
}

/**
 * Refuses, as an `isError` result, a result too large for one response (never a gateway 500 or a cut-down
 * success). Results whose payload is small are passed without serializing them.
 */
export function fitResult(result: CallToolResult, tool: string, storageConfigured: boolean): CallToolResult {
  const lowerBound = payloadLength(result);
  // Escaping twice grows a string at most 8x (a control character becomes \\u0001).
  if (lowerBound < MAX_RESULT_BYTES / 8 && result.structuredContent === undefined) return result;
  const bytes = Buffer.byteLength(JSON.stringify(JSON.stringify(result)));
  if (bytes <= MAX_RESULT_BYTES) return result;
  return toolErrorResult(
    `The result of tool "${tool}" is too large to return in one response (${bytes} bytes serialized; the limit is ` +
      `${MAX_RESULT_BYTES}). ` +
      (storageConfigured
        ? 'Ask for less data at a time, or split the work into several calls.'
        : 'Storage for large outputs is not configured (OFFLOAD_BUCKET), so ask for less data at a time.'),
  );
}
