import { nodeCrypto } from '../crypto.ts';
import { errorFields } from '../log.ts';
import type { StorageWriter } from '../storage/storage.ts';
import { ToolError } from '../contracts/tool-error.ts';
import { chunksOf, inlineBlock } from '../tools/stream-reading.ts';
import type { StreamedContent, SunkStream } from '../tools/streamed.ts';
import { layoutMetadata, partFacts, type PartFacts } from './layout.ts';
import { sha256Hex, toAttributes } from './object-info.ts';
import type { OffloadContext } from './offload-context.ts';
import { PartCutter } from './part-cutter.ts';
import type { OffloadLimits } from './policy.ts';
import { formatSize } from './sizes.ts';
import { linesSummary, payloadLinks, payloadNotice, previewOf, type StoredPayload } from './summary.ts';
import { outputKey, outputUri } from './uri.ts';
import { removeAll, WriteQueue } from './writes.ts';

/**
 * Storing a streamed output while it is produced. Its first chunks are held until it passes the offload threshold
 * (an output that ends before is returned inline, as any small block); then it is cut into parts as it arrives,
 * each part hashed and written as soon as it is full, at most `concurrency` writes in flight, so memory holds a few
 * parts whatever the output's size. Part 1 is written last: its metadata describes the whole (part sizes, newline
 * counts, the whole output's SHA-256, hashed on the fly), which is only known at the end. Why parts rather than an
 * S3 multipart upload: every part must stay readable on its own through `resources/read` (one Lambda response
 * each), and the readers already map offsets and lines across parts from that metadata.
 */

/** Where and how one streamed output is stored. */
export interface StreamStoreOptions {
  storage: StorageWriter;
  prefix: string;
  id: string;
  expiresAt: number;
  owner: string | undefined;
  limits: OffloadLimits;
  concurrency: number;
  /** Where the notice of a stored output is recorded, so the offload policy never stores it in turn. */
  notices: WeakSet<object>;
}

/** The output would need more parts than an output may have: it is refused, and what was written removed. */
class TooManyPartsError extends Error {}

/** Storage refused a write (the queue holds the failure). */
class WriteFailedError extends Error {}

/** The inline size of `bytes` bytes of a stream: text bytes, or the base64 length of binary data. */
const inlineSize = (kind: StreamedContent['kind'], bytes: number) =>
  kind === 'text' ? bytes : Math.ceil(bytes / 3) * 4;

/** Consumes one streamed output: inline when it ends small, else stored in parts and linked. */
export async function storeStream(
  content: StreamedContent,
  signal: AbortSignal,
  ctx: OffloadContext,
  options: StreamStoreOptions,
): Promise<SunkStream> {
  const chunks = chunksOf(content, signal, ctx.tool);
  try {
    const head: Uint8Array[] = [];
    let headBytes = 0;
    let next = await chunks.next();
    for (; !next.done; next = await chunks.next()) {
      head.push(next.value);
      headBytes += next.value.byteLength;
      if (inlineSize(content.kind, headBytes) > options.limits.thresholdBytes) break;
    }
    const inline = next.done ? inlineBlock(content, Buffer.concat(head)) : undefined;
    if (inline) return { blocks: [inline], discard: async () => undefined };
    const store = new StreamedStore(content, ctx, options, signal);
    return await store.run(head, chunks);
  } finally {
    // Closes the tool's source when the store stopped early (a failure, a refusal, the end of the budget).
    await chunks.return(undefined);
  }
}

/** One streamed output on its way to storage. */
class StreamedStore {
  private readonly cutter: PartCutter;
  private readonly whole = nodeCrypto().createHash('sha256');
  private readonly queue: WriteQueue;
  private readonly facts: PartFacts[] = [];
  private readonly hashes: string[] = [];
  private first: Buffer | undefined;
  private size = 0;
  private wholeSha256: string | undefined;

  constructor(
    private readonly content: StreamedContent,
    private readonly ctx: OffloadContext,
    private readonly options: StreamStoreOptions,
    signal: AbortSignal,
  ) {
    this.cutter = new PartCutter(this.encoding, options.limits.partBudgetBytes);
    this.queue = new WriteQueue(options.storage, {
      concurrency: options.concurrency,
      signal,
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    });
  }

  private get encoding(): 'utf-8' | 'binary' {
    return this.content.kind === 'text' ? 'utf-8' : 'binary';
  }

  async run(head: readonly Uint8Array[], rest: AsyncIterator<Uint8Array>): Promise<SunkStream> {
    try {
      for (const chunk of head) await this.push(chunk);
      for (let next = await rest.next(); !next.done; next = await rest.next()) await this.push(next.value);
      for (const part of this.cutter.end(this.facts.length === 0)) await this.completed(part);
      await this.writeFirst();
      const failure = await this.queue.settle();
      if (failure) throw new WriteFailedError();
    } catch (error) {
      throw await this.failed(error);
    }
    const stored = this.stored();
    this.ctx.log.info('output offloaded', {
      tool: this.ctx.tool,
      objects: stored.parts.length,
      bytes: stored.size,
      streamed: true,
    });
    this.ctx.onStored?.(stored.size);
    const keys = [...this.queue.keys()];
    return {
      blocks: [
        payloadNotice(this.ctx.tool, stored, this.ctx.readTool),
        ...payloadLinks(this.ctx.tool, stored),
      ],
      discard: async () => {
        await removeAll(this.options.storage, keys, this.ctx.deadline);
      },
    };
  }

  private async push(chunk: Uint8Array): Promise<void> {
    this.whole.update(chunk);
    this.size += chunk.byteLength;
    for (const part of this.cutter.push(chunk)) await this.completed(part);
  }

  /** A full part: hashed, counted, and written (part 1 waits for the end). */
  private async completed(part: Buffer): Promise<void> {
    const index = this.facts.length;
    if (index >= this.options.limits.maxParts) throw new TooManyPartsError();
    const sha256 = sha256Hex(part);
    this.facts.push(partFacts(part));
    this.hashes.push(sha256);
    if (index === 0) {
      this.first = part;
      return;
    }
    const address = { id: this.options.id, part: index + 1 };
    const written = await this.queue.add({
      key: outputKey(this.options.prefix, address, this.options.owner),
      body: part,
      attributes: this.attributes(part.byteLength, sha256),
    });
    if (!written) throw new WriteFailedError();
  }

  /** Part 1 (or the whole, when one part was enough), with the layout of the whole in its metadata. */
  private async writeFirst(): Promise<void> {
    const multi = this.facts.length > 1;
    const address = multi ? { id: this.options.id, part: 1 } : { id: this.options.id };
    const own = this.attributes(this.facts[0]!.size, this.hashes[0]!);
    const layout = layoutMetadata(this.facts, this.encoding, this.sha256);
    const written = await this.queue.add({
      key: outputKey(this.options.prefix, address, this.options.owner),
      body: this.first!,
      attributes: { ...own, metadata: { ...own.metadata, ...layout } },
    });
    if (!written) throw new WriteFailedError();
  }

  /** The whole output's SHA-256, once every byte has been hashed. */
  private get sha256(): string {
    return (this.wholeSha256 ??= this.whole.digest('hex'));
  }

  private attributes(size: number, sha256: string) {
    const { owner, expiresAt } = this.options;
    return toAttributes({
      mimeType: this.content.mimeType,
      encoding: this.encoding,
      size,
      sha256,
      expiresAt,
      ...(owner !== undefined ? { owner } : {}),
    });
  }

  /** Stops the store, removes what was written, logs, and says what the model is told (or passes the tool's error). */
  private async failed(error: unknown): Promise<unknown> {
    this.queue.fail(error);
    const failure = await this.queue.settle();
    const { tool, requestId } = this.ctx;
    if (error instanceof TooManyPartsError) {
      this.ctx.log.warn('output refused', { tool, streamed: true });
      const most = this.options.limits.maxParts;
      return new ToolError(
        `The output of tool "${tool}" is too large to store: it grew past ${most} parts ` +
          `(${formatSize(this.size)} so far) and at most ${most} are allowed. Ask for less data per call.`,
      );
    }
    const storageFailed = error instanceof WriteFailedError;
    // The tool's own failure is logged where every tool failure is; here only what it left in storage.
    if (storageFailed || (failure?.started ?? 0) > 0) {
      this.ctx.log.error('offload failed', {
        tool,
        error: errorFields(storageFailed ? failure?.error : error),
        streamed: true,
        timedOut: failure?.timedOut ?? false,
        started: failure?.started ?? 0,
        removed: failure?.removed ?? 0,
      });
    }
    if (!storageFailed) return error;
    const why = failure?.timedOut ? 'storage did not answer in time, before the end of the call' : undefined;
    return new ToolError(
      `The output of tool "${tool}" (${this.size.toLocaleString('en-US')} bytes so far) was too large to return ` +
        `inline and could not be stored (${why ?? 'storage is unavailable right now'}), so no output was ` +
        `returned. Try the call again shortly. Request id: ${requestId}.`,
    );
  }

  /** What was stored, as links and the notice describe it. */
  private stored(): StoredPayload {
    const { id, prefix } = this.options;
    const multi = this.facts.length > 1;
    const parts = this.facts.map((f, i) => ({
      uri: outputUri(prefix, multi ? { id, part: i + 1 } : { id }),
      size: f.size,
      sha256: this.hashes[i]!,
      id,
    }));
    const text = this.encoding === 'utf-8';
    const lines =
      this.facts.reduce((n, f) => n + f.newlines, 0) + (this.facts.at(-1)?.endsWithNewline ? 0 : 1);
    const kind = this.content.mimeType.split('/')[0]!.trim().toLowerCase();
    const annotations = this.content.options.annotations;
    return {
      source: text ? 'text' : kind === 'image' || kind === 'audio' ? kind : 'binary',
      mimeType: this.content.mimeType,
      encoding: this.encoding,
      size: this.size,
      sha256: this.sha256,
      expiresAt: this.options.expiresAt,
      parts,
      ...(text ? { summary: linesSummary(lines), preview: this.preview() } : {}),
      ...(annotations ? { annotations } : {}),
    };
  }

  /** The first lines, from the start of part 1 (cut before a character that does not fit). */
  private preview(): string {
    const first = this.first!;
    let end = Math.min(first.byteLength, 4096);
    while (end > 0 && end < first.byteLength && (first[end]! & 0xc0) === 0x80) end--;
    return previewOf(first.toString('utf8', 0, end), end < this.size);
  }
}
