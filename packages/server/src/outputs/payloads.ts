import type { Annotations, ContentBlock } from '../protocol/types.ts';
import { splitBytes, splitText } from './parts.ts';
import { describeBinary, describeText, type PayloadSource } from './summary.ts';

/**
 * Payloads: what is stored for a block or an explicit `ctx.store()`, already cut into parts that each fit one
 * `resources/read` response, with the summary and preview the model sees instead of the bytes.
 */

/** A payload chosen for storage, already cut into parts (bytes in order). */
export interface PlannedPayload {
  source: PayloadSource;
  mimeType: string;
  encoding: 'utf-8' | 'binary';
  parts: Uint8Array[];
  /** Total bytes over all parts. */
  size: number;
  summary?: string;
  preview?: string;
  originUri?: string;
  annotations?: Annotations;
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const sum = (parts: readonly Uint8Array[]) => parts.reduce((n, p) => n + p.byteLength, 0);

export function textPayload(
  source: PayloadSource,
  text: string,
  mimeType: string,
  limits: { partBudgetBytes: number },
  extra: Partial<PlannedPayload> = {},
): PlannedPayload {
  const parts = splitText(text, limits.partBudgetBytes).map(utf8);
  return { source, mimeType, encoding: 'utf-8', parts, size: sum(parts), ...describeText(text), ...extra };
}

export function binaryPayload(
  source: PayloadSource,
  bytes: Uint8Array,
  mimeType: string,
  limits: { partBudgetBytes: number },
  extra: Partial<PlannedPayload> = {},
): PlannedPayload {
  const parts = splitBytes(bytes, limits.partBudgetBytes);
  return {
    source,
    mimeType,
    encoding: 'binary',
    parts,
    size: bytes.byteLength,
    ...describeBinary(bytes),
    ...extra,
  };
}

/** Size of a block as it sits in the conversation: text bytes, or the base64 length of binary data. */
export function inlineSize(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return Buffer.byteLength(block.text, 'utf8');
    case 'image':
    case 'audio':
      return block.data.length;
    case 'resource':
      return 'text' in block.resource
        ? Buffer.byteLength(block.resource.text, 'utf8')
        : block.resource.blob.length;
    default:
      return 0;
  }
}

export const storable = (block: ContentBlock) => block.type !== 'resource_link';

export function blockPayload(block: ContentBlock, limits: { partBudgetBytes: number }): PlannedPayload {
  const annotations =
    block.type !== 'resource_link' && block.annotations ? { annotations: block.annotations } : {};
  switch (block.type) {
    case 'text':
      return textPayload('text', block.text, 'text/plain', limits, annotations);
    case 'image':
    case 'audio':
      return binaryPayload(
        block.type,
        Buffer.from(block.data, 'base64'),
        block.mimeType,
        limits,
        annotations,
      );
    case 'resource': {
      const r = block.resource;
      const extra = { ...annotations, originUri: r.uri };
      return 'text' in r
        ? textPayload('resource', r.text, r.mimeType ?? 'text/plain', limits, extra)
        : binaryPayload(
            'resource',
            Buffer.from(r.blob, 'base64'),
            r.mimeType ?? 'application/octet-stream',
            limits,
            extra,
          );
    }
    default:
      throw new Error('resource links are never stored');
  }
}
