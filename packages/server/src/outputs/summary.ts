import type { Annotations, ResourceLink, TextContent } from '../protocol/types.ts';
import { OUTPUT_META_KEY } from './object-info.ts';
import { count, formatSize } from './sizes.ts';

/** What a stored output was before it was stored (drives the wording of links and notices). */
export type PayloadSource = 'text' | 'image' | 'audio' | 'binary' | 'resource' | 'structured' | 'explicit';

/** A payload that was stored, as the links and the notice describe it. */
export interface StoredPayload {
  source: PayloadSource;
  mimeType: string;
  encoding: 'utf-8' | 'binary';
  /** Whole payload size in bytes and its SHA-256 (lower-case hex). */
  size: number;
  sha256: string;
  /** Short facts, e.g. "20,001 lines" or "640×480 pixels". */
  summary?: string;
  /** The beginning of a text payload. */
  preview?: string;
  /** URI of the embedded resource the payload came from. */
  originUri?: string;
  annotations?: Annotations;
  /** Epoch milliseconds after which it is gone. */
  expiresAt: number;
  /** The stored objects in order (one unless the payload was split). */
  parts: { uri: string; size: number; sha256: string; id: string }[];
  /** Overrides for an explicit store. */
  name?: string;
  title?: string;
  description?: string;
}

const PREVIEW_LINES = 10;
const PREVIEW_CHARS = 400;
const DESCRIPTION_PREVIEW_CHARS = 120;

const EXTENSIONS: Record<string, string> = {
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/markdown': '.md',
  'text/html': '.html',
  'application/json': '.json',
  'application/xml': '.xml',
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
  'audio/wav': '.wav',
  'audio/mpeg': '.mp3',
  'audio/ogg': '.ogg',
};

const KIND: Record<PayloadSource, string> = {
  text: 'text',
  image: 'image',
  audio: 'audio',
  binary: 'binary',
  resource: 'embedded resource',
  structured: 'structured output (JSON)',
  explicit: 'payload',
};

/** Cuts a string to at most `max` UTF-16 units without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** "20,001 lines". */
export const linesSummary = (lines: number) => `${count(lines)} line${lines === 1 ? '' : 's'}`;

/** The first lines of a text, marked with an ellipsis when the text (or the output it starts) goes on. */
export function previewOf(text: string, more = false): string {
  let index = -1;
  for (let line = 0; line < PREVIEW_LINES; line++) {
    index = text.indexOf('\n', index + 1);
    if (index === -1) break;
  }
  const head = index === -1 ? text : text.slice(0, index);
  const preview = cut(head, PREVIEW_CHARS);
  return preview.length < text.length || more ? `${preview}…` : preview;
}

/** Facts and a preview for a text payload: its line count and first lines. */
export function describeText(text: string): { summary: string; preview: string } {
  let lines = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  if (text.length > 0 && !text.endsWith('\n')) lines++;
  return { summary: linesSummary(lines), preview: previewOf(text) };
}

/** Facts about a JSON value: its shape, and the start of its serialization as a preview. */
export function describeJson(value: unknown, json: string): { summary: string; preview: string } {
  let summary: string;
  if (Array.isArray(value)) summary = `JSON array of ${count(value.length)} items`;
  else if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 8).join(', ');
    summary = `JSON object with ${count(keys.length)} key${keys.length === 1 ? '' : 's'} (${shown}${keys.length > 8 ? ', …' : ''})`;
  } else summary = `JSON ${value === null ? 'null' : typeof value}`;
  const preview = cut(json, PREVIEW_CHARS);
  return { summary, preview: preview.length < json.length ? `${preview}…` : preview };
}

/** Facts about binary bytes: the pixel size of PNG and GIF images, else nothing beyond the size. */
export function describeBinary(bytes: Uint8Array): { summary?: string } {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const png =
    view.length >= 24 && view.readUInt32BE(0) === 0x89504e47 && view.toString('ascii', 12, 16) === 'IHDR';
  if (png) return { summary: `${count(view.readUInt32BE(16))}×${count(view.readUInt32BE(20))} pixels` };
  const gif = view.length >= 10 && view.toString('ascii', 0, 4) === 'GIF8';
  if (gif) return { summary: `${count(view.readUInt16LE(6))}×${count(view.readUInt16LE(8))} pixels` };
  return {};
}

const extensionOf = (mimeType: string) => EXTENSIONS[mimeType.split(';')[0]!.trim().toLowerCase()] ?? '';

/** The resource links for a stored payload, in part order. */
export function payloadLinks(tool: string, stored: StoredPayload): ResourceLink[] {
  const total = stored.parts.length;
  const id8 = stored.parts[0]!.id.slice(0, 8);
  const ext = extensionOf(stored.mimeType);
  const kind = KIND[stored.source];
  const until = new Date(stored.expiresAt).toISOString();
  const origin = stored.originUri ? ` (embedded resource ${stored.originUri})` : '';
  const facts = [formatSize(stored.size), stored.summary].filter(Boolean).join(', ');
  let offset = 0;
  return stored.parts.map((part, i) => {
    const meta = {
      expiresAt: until,
      size: part.size,
      sha256: part.sha256,
      ...(total > 1
        ? {
            part: { index: i + 1, count: total, offset },
            whole: { size: stored.size, sha256: stored.sha256 },
          }
        : {}),
    };
    const from = offset;
    offset += part.size;
    const baseName = `${tool}-${id8}`;
    const baseTitle = stored.title ?? `${kind[0]!.toUpperCase()}${kind.slice(1)} from ${tool}`;
    const preview =
      i === 0 && stored.preview
        ? ` Starts: ${JSON.stringify(cut(stored.preview, DESCRIPTION_PREVIEW_CHARS))}`
        : '';
    const description =
      total > 1
        ? `Part ${i + 1} of ${total} (bytes ${count(from)} to ${count(offset)} of ${count(stored.size)}) of the ` +
          `${kind} from ${tool}${origin}; ${stored.mimeType}; stored until ${until}.${preview}`
        : (stored.description ??
          `The ${kind} from ${tool}${origin}: ${stored.mimeType}, ${facts}; stored until ${until}.${preview}`);
    return {
      type: 'resource_link',
      uri: part.uri,
      name: total > 1 ? `${baseName}-part-${i + 1}-of-${total}${ext}` : (stored.name ?? `${baseName}${ext}`),
      title: total > 1 ? `${baseTitle}, part ${i + 1} of ${total}` : baseTitle,
      description,
      mimeType: stored.mimeType,
      size: part.size,
      ...(stored.annotations ? { annotations: stored.annotations } : {}),
      _meta: { [OUTPUT_META_KEY]: meta },
    };
  });
}

/**
 * Where the output was stored, by its exact URI: clients that drop `resource_link` blocks leave the model only this
 * text to take a URI from. At most two URIs, however many parts: part n's URI ends in `/part-n`.
 */
function whereStored(stored: StoredPayload): string {
  const parts = stored.parts;
  if (parts.length === 1) return `stored as ${parts[0]!.uri} and linked below`;
  return (
    `stored in ${parts.length} parts, linked below in order, as ${parts[0]!.uri} to ${parts.at(-1)!.uri} ` +
    '(part n ends in /part-n)'
  );
}

/** How the model reads a stored output: through the read tool when the server has it (text only), else resources/read. */
function howToRead(stored: StoredPayload, readTool: string | undefined): string {
  const parts = stored.parts.length > 1;
  const join = 'join the parts in order, with nothing between them, to get the whole output';
  if (readTool !== undefined && stored.encoding === 'utf-8') {
    return parts
      ? `Call ${readTool} with the first part's uri to read it a page at a time or search it, across all parts ` +
          `(or read each part with resources/read where your host offers it, and ${join})`
      : `Call ${readTool} with that uri to read it a page at a time or search it (or use resources/read ` +
          `where your host offers it)`;
  }
  const form = stored.encoding === 'binary' ? ' (it comes back as a base64 blob)' : '';
  return parts
    ? `Read each part with resources/read using its uri and ${join}${form}`
    : `Read it with resources/read using that uri${form}`;
}

/**
 * The short text that tells the model what it got instead of the output, where it is (its URI, in the text itself),
 * and how to read it.
 */
export function payloadNotice(tool: string, stored: StoredPayload, readTool?: string): TextContent {
  const kind = KIND[stored.source];
  const origin = stored.originUri ? ` (embedded resource ${stored.originUri})` : '';
  const facts = [stored.mimeType, formatSize(stored.size), stored.summary].filter(Boolean).join(', ');
  const lines = [
    `The ${kind} output of ${tool}${origin} (${facts}) is too large to include here, so it was ` +
      `${whereStored(stored)}. ${howToRead(stored, readTool)}. It stays available until ` +
      `${new Date(stored.expiresAt).toISOString()}; SHA-256 of the whole output: ${stored.sha256}.`,
  ];
  if (stored.preview) lines.push(`Preview:\n${stored.preview}`);
  return { type: 'text', text: lines.join('\n') };
}
