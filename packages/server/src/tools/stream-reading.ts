import type { ContentBlock } from '../protocol/types.ts';
import type { StreamedContent, SunkStream } from './streamed.ts';
import { ToolError } from '../contracts/tool-error.ts';

/**
 * Reading a streamed output: its chunks, checked and stopping with the call, and its inline block when it ends
 * small. Loaded with the first streamed output (by the inline sink, or with the offloader that stores them).
 */

/** A chunk that is neither text nor bytes: a bug in the tool, answered as one. */
export class InvalidChunkError extends ToolError {
  constructor(tool: string) {
    super(
      `Tool "${tool}" streamed a chunk that is neither a string nor a Uint8Array; this is a bug in the tool.`,
    );
    this.name = 'InvalidChunkError';
  }
}

/**
 * The chunks of a streamed output as bytes (text as UTF-8), checked, stopping with the call: once `signal` aborts
 * (the budget ran out, the call was cancelled) the next chunk throws its reason, and the source is closed.
 */
export async function* chunksOf(
  content: StreamedContent,
  signal: AbortSignal,
  tool: string,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of content.source) {
    if (signal.aborted) throw signal.reason;
    if (typeof chunk === 'string') yield Buffer.from(chunk, 'utf8');
    else if (chunk instanceof Uint8Array) yield chunk;
    else throw new InvalidChunkError(tool);
  }
}

const tooLargeWithoutStorage = (tool: string, maxBytes: number) =>
  `The output of tool "${tool}" cannot be returned: it is larger than one response carries (${maxBytes} bytes) ` +
  'or has no inline form, and storage for large outputs is not configured (OFFLOAD_BUCKET), so ask for less ' +
  'data at a time.';

/** The inline block of a streamed output that ended small. */
export function inlineBlock(content: StreamedContent, bytes: Buffer): ContentBlock | undefined {
  const annotations = content.options.annotations ? { annotations: content.options.annotations } : {};
  if (content.kind === 'text') return { type: 'text', text: bytes.toString('utf8'), ...annotations };
  const type = content.mimeType.split('/')[0]!.trim().toLowerCase();
  const data = bytes.toString('base64');
  if (type === 'image' || type === 'audio') return { type, data, mimeType: content.mimeType, ...annotations };
  const uri = content.options.uri;
  if (uri === undefined) return undefined;
  return { type: 'resource', resource: { uri, mimeType: content.mimeType, blob: data }, ...annotations };
}

/**
 * A streamed output collected inline (the sink of a server without storage), up to `maxBytes`; a longer one stops
 * the stream and answers `isError`, as a result too large for one response would.
 */
export async function collectInline(
  content: StreamedContent,
  signal: AbortSignal,
  tool: string,
  maxBytes: number,
): Promise<SunkStream> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunksOf(content, signal, tool)) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new ToolError(tooLargeWithoutStorage(tool, maxBytes));
    chunks.push(chunk);
  }
  const block = inlineBlock(content, Buffer.concat(chunks));
  if (!block) throw new ToolError(tooLargeWithoutStorage(tool, maxBytes));
  return { blocks: [block], discard: async () => undefined };
}
