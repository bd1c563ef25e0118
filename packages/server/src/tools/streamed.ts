import type { Annotations, CallToolResult, ContentBlock } from '../protocol/types.ts';
import { isJsonObject } from '../protocol/json.ts';

/**
 * Streamed outputs: a tool that produces a large output returns it as it is made (an async iterable of text or
 * bytes, e.g. an async generator, a web ReadableStream or a Node Readable) instead of building one big string. The
 * server stores it in parts while it is produced and links it, so memory stays flat whatever the output's size
 * (docs/outputs.md "Streamed outputs"); an output that ends small comes back inline, as any other block.
 */

/** What a streamed output is read from: chunks of text (UTF-8 when bytes) or of binary data, in order. */
export type StreamSource = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/** How a streamed output is described once stored. */
export interface StreamedOptions {
  /** Content type of the whole output. Default `text/plain` for text; required for bytes. */
  mimeType?: string;
  /** Annotations of the block (inline) or of the links (stored). */
  annotations?: Annotations;
}

/** A streamed output a handler returns, alone, in a block array, or in a result's `content`. */
export class StreamedContent {
  constructor(
    /** `text`: the chunks are UTF-8 text; `bytes`: binary data. */
    readonly kind: 'text' | 'bytes',
    readonly source: StreamSource,
    readonly mimeType: string,
    readonly options: { annotations?: Annotations; uri?: string } = {},
  ) {}
}

/** A text output produced as it goes: strings, or bytes of UTF-8 text. */
export function streamedText(source: StreamSource, options: StreamedOptions = {}): StreamedContent {
  return new StreamedContent('text', source, options.mimeType ?? 'text/plain', {
    ...(options.annotations ? { annotations: options.annotations } : {}),
  });
}

/**
 * A binary output produced as it goes. When it ends small it comes back inline: an `image/*` or `audio/*` type as
 * an image or audio block, any other type as an embedded resource, which needs `uri`; without one it is always
 * stored and linked.
 */
export function streamedBytes(
  source: StreamSource,
  options: StreamedOptions & { mimeType: string; uri?: string },
): StreamedContent {
  return new StreamedContent('bytes', source, options.mimeType, {
    ...(options.annotations ? { annotations: options.annotations } : {}),
    ...(options.uri !== undefined ? { uri: options.uri } : {}),
  });
}

/** What one streamed output became: the blocks that replace it, and how to remove what was stored for it. */
export interface SunkStream {
  blocks: ContentBlock[];
  /** Deletes what was stored (another stream of the same result failed); best effort, never throws. */
  discard(): Promise<void>;
}

/** Where a call's streamed outputs go: the offloader stores them; without storage they are collected inline. */
export type StreamSink = (content: StreamedContent, signal: AbortSignal) => Promise<SunkStream>;

/** Where the streamed outputs of a handler's return value are, if it has any. */
function streamsOf(value: unknown): { blocks: unknown[]; result?: Record<string, unknown> } | undefined {
  if (value instanceof StreamedContent) return { blocks: [value] };
  if (Array.isArray(value) && value.some((v) => v instanceof StreamedContent)) return { blocks: value };
  if (
    isJsonObject(value) &&
    Array.isArray(value.content) &&
    value.content.some((v) => v instanceof StreamedContent)
  )
    return { blocks: value.content, result: value };
  return undefined;
}

/**
 * Turns every streamed output of a handler's return value into blocks through `sink`, one after the other (each
 * stream is produced as it is read); any other value is returned as it is (`signalOf` is only asked for when there
 * is a stream: most calls never create the tool's signal). If one fails, what the others stored is
 * removed and the failure goes on to the caller, which answers `isError`.
 */
export async function resolveStreams(
  value: unknown,
  sink: StreamSink,
  signalOf: () => AbortSignal,
): Promise<unknown> {
  const found = streamsOf(value);
  if (!found) return value;
  const signal = signalOf();
  const sunk: SunkStream[] = [];
  const content: unknown[] = [];
  try {
    for (const item of found.blocks) {
      if (!(item instanceof StreamedContent)) {
        content.push(item);
        continue;
      }
      const done = await sink(item, signal);
      sunk.push(done);
      content.push(...done.blocks);
    }
  } catch (error) {
    await Promise.all(sunk.map((s) => s.discard()));
    throw error;
  }
  return { ...found.result, content } as CallToolResult;
}
