import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { PRELUDE_DELIMITER, type HttpResponsePrelude } from '@mcp-lambda/server/internal';

const DELIMITER = Buffer.from(PRELUDE_DELIMITER);

/**
 * The response stream a streaming handler writes to, read as API Gateway reads a streaming Lambda integration: the
 * JSON prelude up to 8 NUL bytes gives the status and headers, which go out at once; every later byte goes to the
 * client as it is written. When the client goes away first, the stream is destroyed, which is how the handler
 * learns of it.
 */
export class LocalResponseStream extends Writable {
  private pending: Buffer = Buffer.alloc(0);
  private started = false;

  constructor(private readonly res: ServerResponse) {
    super();
    res.on('close', () => {
      if (!res.writableFinished) this.destroy();
    });
  }

  /** Whether the prelude arrived, so the status and headers have been sent. */
  get headersSent(): boolean {
    return this.started;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.started) {
      this.res.write(chunk, () => callback());
      return;
    }
    this.pending = Buffer.concat([this.pending, chunk]);
    const at = this.pending.indexOf(DELIMITER);
    if (at < 0) {
      callback();
      return;
    }
    let prelude: HttpResponsePrelude;
    try {
      prelude = JSON.parse(this.pending.subarray(0, at).toString('utf8')) as HttpResponsePrelude;
    } catch (error) {
      callback(error as Error);
      return;
    }
    const rest = this.pending.subarray(at + DELIMITER.length);
    this.started = true;
    this.pending = Buffer.alloc(0);
    this.res.writeHead(prelude.statusCode, {
      ...prelude.headers,
      ...(prelude.cookies?.length ? { 'set-cookie': prelude.cookies } : {}),
    });
    this.res.flushHeaders();
    if (rest.length) this.res.write(rest, () => callback());
    else callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.started) {
      callback(new Error('the streaming handler ended without a prelude'));
      return;
    }
    this.res.end(() => callback());
  }
}
