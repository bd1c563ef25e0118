import type { Annotations, CallToolResult, ContentBlock } from '../protocol/types.ts';
import type { StoreRequest } from '../tools/define.ts';
import { PART_BUDGET_BYTES, splitBytes, splitText } from './parts.ts';
import {
  describeBinary,
  describeJson,
  describeText,
  formatSize,
  payloadLinks,
  payloadNotice,
  type PayloadSource,
  type StoredPayload,
} from './summary.ts';
import { MAX_PARTS } from './uri.ts';

/**
 * The offload policy as pure functions: which parts of a tool result go to storage, how they are cut into
 * parts, and what the result looks like afterwards. No I/O here; `offloader.ts` does the writing.
 */

/** The numbers the policy works with. */
export interface OffloadLimits {
  /** A block whose inline size (text bytes, or base64 length of binary) is above this is stored. */
  thresholdBytes: number;
  /** Most serialized bytes of blocks kept inline in one result; above it the largest blocks are stored too. */
  maxInlineBytes: number;
  /** Largest serialized size of one stored part (see `parts.ts`). */
  partBudgetBytes: number;
  /** Most parts one payload may be split into. */
  maxParts: number;
}

/**
 * Inline content of a result is capped at 1 MiB serialized and so is structuredContent an outputSchema makes
 * mandatory: escaped a second time inside the Lambda response (at most twice the size) both still fit its 6 MB.
 */
export const MAX_INLINE_CAP_BYTES = 1024 * 1024;
export const MAX_REQUIRED_STRUCTURED_BYTES = 1024 * 1024;

/** Limits derived from the one configured threshold: at most three blocks' worth inline, capped. */
export function offloadLimits(thresholdBytes: number): OffloadLimits {
  return {
    thresholdBytes,
    maxInlineBytes: Math.min(3 * thresholdBytes, MAX_INLINE_CAP_BYTES),
    partBudgetBytes: PART_BUDGET_BYTES,
    maxParts: MAX_PARTS,
  };
}

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

/** What to do with one tool result. */
export type OffloadPlan =
  | { action: 'keep' }
  /** Store `payloads`, then `assemble` the result from what was stored (same order as `payloads`). */
  | {
      action: 'store';
      payloads: PlannedPayload[];
      assemble(stored: readonly StoredPayload[]): CallToolResult;
    }
  /** The result cannot be returned honestly; answer `isError` with this message instead. */
  | { action: 'refuse'; message: string };

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const sum = (parts: readonly Uint8Array[]) => parts.reduce((n, p) => n + p.byteLength, 0);

function textPayload(
  source: PayloadSource,
  text: string,
  mimeType: string,
  limits: OffloadLimits,
  extra: Partial<PlannedPayload> = {},
): PlannedPayload {
  const parts = splitText(text, limits.partBudgetBytes).map(utf8);
  return { source, mimeType, encoding: 'utf-8', parts, size: sum(parts), ...describeText(text), ...extra };
}

function binaryPayload(
  source: PayloadSource,
  bytes: Uint8Array,
  mimeType: string,
  limits: OffloadLimits,
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

const storable = (block: ContentBlock) => block.type !== 'resource_link';

function blockPayload(block: ContentBlock, limits: OffloadLimits): PlannedPayload {
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

function tooManyParts(tool: string, payload: PlannedPayload, limits: OffloadLimits): string {
  return (
    `The output of tool "${tool}" (${formatSize(payload.size)}) is too large to store: it would need ` +
    `${payload.parts.length} parts and at most ${limits.maxParts} are allowed. Ask for less data per call.`
  );
}

/**
 * Decides what happens to one tool result (issue: "offload policy applied to every tool result in one place"):
 * 1. structuredContent above the threshold: without an outputSchema it is removed and stored as JSON; with one it
 *    must stay (the result stays schema-valid), and only its serialized copy in `content` is stored.
 * 2. every text, image, audio or embedded resource block above the threshold is stored;
 * 3. if the blocks left inline still exceed `maxInlineBytes`, the largest are stored until they fit.
 * A stored block is replaced, in place, by a short notice and its resource link(s).
 */
export function planOffload(
  result: CallToolResult,
  limits: OffloadLimits,
  options: { tool: string; structuredContentRequired?: boolean },
): OffloadPlan {
  const { tool } = options;
  const blocks = Array.isArray(result.content) ? result.content : [];
  const json = result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent);
  const jsonBytes = json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
  const isMirror = (b: ContentBlock) => json !== undefined && b.type === 'text' && b.text === json;

  let dropStructured = false;
  if (json !== undefined && jsonBytes > limits.thresholdBytes) {
    if (!options.structuredContentRequired) dropStructured = true;
    else if (jsonBytes > MAX_REQUIRED_STRUCTURED_BYTES) {
      return {
        action: 'refuse',
        message:
          `Tool "${tool}" returned structuredContent of ${formatSize(jsonBytes)}, more than one response can ` +
          `carry (${formatSize(MAX_REQUIRED_STRUCTURED_BYTES)}). Its outputSchema requires it inline, so it ` +
          `cannot be stored and linked; this is a limit of the tool, not of the request.`,
      };
    }
  }

  const selected = new Set<number>();
  blocks.forEach((b, i) => {
    if (storable(b) && (inlineSize(b) > limits.thresholdBytes || (dropStructured && isMirror(b))))
      selected.add(i);
  });
  const cost = blocks.map((b, i) => (selected.has(i) ? 0 : Buffer.byteLength(JSON.stringify(b), 'utf8')));
  let inline = cost.reduce((a, b) => a + b, 0);
  if (inline > limits.maxInlineBytes) {
    const candidates = blocks
      .map((b, i) => i)
      .filter((i) => !selected.has(i) && storable(blocks[i]!))
      .sort((a, b) => cost[b]! - cost[a]! || a - b);
    for (const i of candidates) {
      if (inline <= limits.maxInlineBytes) break;
      selected.add(i);
      inline -= cost[i]!;
    }
  }
  if (selected.size === 0 && !dropStructured) return { action: 'keep' };

  // One payload per stored block, except that every copy of the structured JSON shares one.
  const payloads: PlannedPayload[] = [];
  const payloadOf = new Map<number, number>();
  let jsonPayload: number | undefined;
  const structuredPayload = () =>
    (jsonPayload ??=
      payloads.push(
        textPayload(
          'structured',
          json!,
          'application/json',
          limits,
          describeJson(result.structuredContent, json!),
        ),
      ) - 1);
  for (const i of [...selected].sort((a, b) => a - b)) {
    payloadOf.set(
      i,
      isMirror(blocks[i]!) ? structuredPayload() : payloads.push(blockPayload(blocks[i]!, limits)) - 1,
    );
  }
  const appendStructured = dropStructured && jsonPayload === undefined;
  if (appendStructured) structuredPayload();

  const oversized = payloads.find((p) => p.parts.length > limits.maxParts);
  if (oversized) return { action: 'refuse', message: tooManyParts(tool, oversized, limits) };

  return {
    action: 'store',
    payloads,
    assemble(stored) {
      const shown = new Set<number>();
      const replacement = (p: number): ContentBlock[] => {
        if (shown.has(p)) return [];
        shown.add(p);
        return [payloadNotice(tool, stored[p]!), ...payloadLinks(tool, stored[p]!)];
      };
      const content = blocks.flatMap((b, i) => (payloadOf.has(i) ? replacement(payloadOf.get(i)!) : [b]));
      if (appendStructured) content.push(...replacement(jsonPayload!));
      const { structuredContent: _dropped, ...rest } = result;
      return { ...(dropStructured ? rest : result), content };
    },
  };
}

/** The payload of an explicit `ctx.store()`; it must fit one resource, since the tool gets one link back. */
export function planExplicitStore(
  request: StoreRequest,
  limits: OffloadLimits,
  tool: string,
): { payload: PlannedPayload } | { refuse: string } {
  if (typeof request?.mimeType !== 'string' || request.mimeType.trim() === '')
    return { refuse: 'ctx.store needs a mimeType' };
  const data = request.data;
  let payload: PlannedPayload;
  if (typeof data === 'string') payload = textPayload('explicit', data, request.mimeType, limits);
  else if (data instanceof Uint8Array) payload = binaryPayload('explicit', data, request.mimeType, limits);
  else return { refuse: 'ctx.store needs data as a string or a Uint8Array' };
  if (payload.parts.length > 1) {
    return {
      refuse:
        `The payload of tool "${tool}" (${formatSize(payload.size)}) is larger than one stored resource can be. ` +
        `Return it as a content block instead: the server stores large blocks in parts and links them.`,
    };
  }
  return { payload };
}
