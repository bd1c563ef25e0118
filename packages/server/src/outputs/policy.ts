import { OutputLimits } from '../limits.ts';
import type { CallToolResult, ContentBlock } from '../protocol/types.ts';
import type { StoreRequest } from '../contracts/tool-context.ts';
import { PART_BUDGET_BYTES } from './parts.ts';
import {
  binaryPayload,
  blockPayload,
  inlineSize,
  storable as isStorable,
  textPayload,
  type PlannedPayload,
} from './payloads.ts';
import { formatSize } from './sizes.ts';
import { describeJson, payloadLinks, payloadNotice, type StoredPayload } from './summary.ts';
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
const MAX_INLINE_CAP_BYTES = OutputLimits.maxInlineBytes;
const MAX_REQUIRED_STRUCTURED_BYTES = OutputLimits.maxRequiredStructuredBytes;

/** Limits derived from the one configured threshold: at most three blocks' worth inline, capped. */
export function offloadLimits(thresholdBytes: number): OffloadLimits {
  return {
    thresholdBytes,
    maxInlineBytes: Math.min(3 * thresholdBytes, MAX_INLINE_CAP_BYTES),
    partBudgetBytes: PART_BUDGET_BYTES,
    maxParts: MAX_PARTS,
  };
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

function tooManyParts(tool: string, payload: PlannedPayload, limits: OffloadLimits): string {
  return (
    `The output of tool "${tool}" (${formatSize(payload.size)}) is too large to store: it would need ` +
    `${payload.parts.length} parts and at most ${limits.maxParts} are allowed. Ask for less data per call.`
  );
}

/** Which blocks of a result go to storage, and whether structuredContent leaves the result. */
interface Selection {
  selected: ReadonlySet<number>;
  dropStructured: boolean;
}

/**
 * Chooses the blocks to store: every storable block above the threshold (and the mirror of structuredContent that
 * is dropped), then the largest others until what stays inline fits `maxInlineBytes`.
 */
function selectBlocks(
  blocks: readonly ContentBlock[],
  limits: OffloadLimits,
  dropStructured: boolean,
  isMirror: (b: ContentBlock) => boolean,
  placed: (b: ContentBlock) => boolean,
): Set<number> {
  const selected = new Set<number>();
  const storable = (b: ContentBlock) => isStorable(b) && !placed(b);
  blocks.forEach((b, i) => {
    if (storable(b) && (inlineSize(b) > limits.thresholdBytes || (dropStructured && isMirror(b))))
      selected.add(i);
  });
  const cost = blocks.map((b, i) => (selected.has(i) ? 0 : Buffer.byteLength(JSON.stringify(b), 'utf8')));
  let inline = cost.reduce((a, b) => a + b, 0);
  if (inline <= limits.maxInlineBytes) return selected;
  const candidates = blocks
    .map((_b, i) => i)
    .filter((i) => !selected.has(i) && storable(blocks[i]!))
    .sort((a, b) => cost[b]! - cost[a]! || a - b);
  for (const i of candidates) {
    if (inline <= limits.maxInlineBytes) break;
    selected.add(i);
    inline -= cost[i]!;
  }
  return selected;
}

/**
 * Decides what happens to one tool result (issue: "offload policy applied to every tool result in one place"):
 * 1. structuredContent above the threshold: without an outputSchema it is removed and stored as JSON; with one it
 *    must stay (the result stays schema-valid), and only its serialized copy in `content` is stored.
 * 2. every text, image, audio or embedded resource block above the threshold is stored;
 * 3. if the blocks left inline still exceed `maxInlineBytes`, the largest are stored until they fit.
 * A stored block is replaced, in place, by a short notice and its resource link(s). `placed` names blocks that
 * already stand for a stored output (the notice of a streamed one): they are never stored themselves.
 */
export function planOffload(
  result: CallToolResult,
  limits: OffloadLimits,
  options: {
    tool: string;
    structuredContentRequired?: boolean;
    readTool?: string;
    placed?: (b: ContentBlock) => boolean;
  },
): OffloadPlan {
  const { tool, readTool } = options;
  const blocks = Array.isArray(result.content) ? result.content : [];
  const json = result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent);
  const jsonBytes = json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
  const isMirror = (b: ContentBlock) => json !== undefined && b.type === 'text' && b.text === json;
  const large = json !== undefined && jsonBytes > limits.thresholdBytes;
  if (large && options.structuredContentRequired && jsonBytes > MAX_REQUIRED_STRUCTURED_BYTES)
    return { action: 'refuse', message: requiredStructuredTooLarge(tool, jsonBytes) };
  const dropStructured = large && !options.structuredContentRequired;
  const selected = selectBlocks(blocks, limits, dropStructured, isMirror, options.placed ?? (() => false));
  if (selected.size === 0 && !dropStructured) return { action: 'keep' };
  return storePlan(result, blocks, { selected, dropStructured }, limits, { tool, json, isMirror, readTool });
}

function requiredStructuredTooLarge(tool: string, jsonBytes: number): string {
  return (
    `Tool "${tool}" returned structuredContent of ${formatSize(jsonBytes)}, more than one response can ` +
    `carry (${formatSize(MAX_REQUIRED_STRUCTURED_BYTES)}). Its outputSchema requires it inline, so it ` +
    `cannot be stored and linked; this is a limit of the tool, not of the request.`
  );
}

/** The payloads of the selected blocks (every copy of the structured JSON shares one) and how to reassemble. */
function storePlan(
  result: CallToolResult,
  blocks: readonly ContentBlock[],
  { selected, dropStructured }: Selection,
  limits: OffloadLimits,
  source: {
    tool: string;
    json: string | undefined;
    isMirror: (b: ContentBlock) => boolean;
    readTool: string | undefined;
  },
): OffloadPlan {
  const { tool, json, isMirror, readTool } = source;
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
        return [payloadNotice(tool, stored[p]!, readTool), ...payloadLinks(tool, stored[p]!)];
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
