import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { Logger } from '../log.ts';
import { exportSigner, type SignExport } from './aws-signing.ts';
import type { OtlpSettings } from './otlp-settings.ts';

/** Most bytes of a collector's answer read (it is drained, not kept: an OTLP answer is a few bytes). */
const ANSWER_MAX_BYTES = 64 * 1024;

/** `work`, or a failure once `timeoutMs` has passed (finding credentials may wait on a profile's process). */
async function within<T>(timeoutMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('finding AWS credentials for the export timed out')),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** One POST of `body` with `headers`, bounded by `timeoutMs` from start to the answer's last byte; its status. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: Uint8Array,
  timeoutMs: number,
): Promise<number> {
  const { request } = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, signal: AbortSignal.timeout(timeoutMs) });
    req.on('response', (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > ANSWER_MAX_BYTES)
          res.destroy(new Error(`the collector's answer passed ${ANSWER_MAX_BYTES} bytes`));
      });
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
      // Settles however the answer ends (a destroyed one emits no 'end').
      res.on('close', () => reject(new Error('the connection closed before the answer ended')));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Spans to an OTLP/HTTP endpoint (X-Ray's, a collector, or any OTLP backend), protobuf or JSON: the OpenTelemetry
 * serializers, sent with Node's own HTTP client, each export bounded in time (finding credentials included). Exports
 * to X-Ray's endpoint are signed (Signature Version 4). A failed export costs the spans, never the request: it is
 * logged once per failure.
 */
export class OtlpHttpExporter implements SpanExporter {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly signer: SignExport | undefined;

  constructor(
    private readonly settings: OtlpSettings,
    private readonly log: Logger,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.signer = settings.signing && exportSigner(settings.signing, env);
  }

  /** The export's POST: its headers signed when the endpoint is AWS's. */
  private async send(body: Uint8Array, contentType: string): Promise<number> {
    const { url, headers, timeoutMs } = this.settings;
    const target = new URL(url);
    const plain = { ...headers, 'content-type': contentType, 'content-length': String(body.byteLength) };
    const started = Date.now();
    const signed = this.signer ? await within(timeoutMs, this.signer(target, plain, body)) : plain;
    return post(target, signed, body, Math.max(1, timeoutMs - (Date.now() - started)));
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const json = this.settings.protocol === 'http/json';
    const body = (json ? JsonTraceSerializer : ProtobufTraceSerializer).serializeRequest(spans);
    if (!body)
      return done({ code: ExportResultCode.FAILED, error: new Error('spans could not be serialized') });
    const sent = this.send(body, json ? 'application/json' : 'application/x-protobuf').then(
      (status) => {
        if (status >= 200 && status < 300) return done({ code: ExportResultCode.SUCCESS });
        this.log.warn('trace export refused', { endpoint: this.settings.url, status, spans: spans.length });
        done({ code: ExportResultCode.FAILED, error: new Error(`OTLP endpoint answered ${status}`) });
      },
      (error: Error) => {
        this.log.warn('trace export failed', {
          endpoint: this.settings.url,
          error: error.message,
          spans: spans.length,
        });
        done({ code: ExportResultCode.FAILED, error });
      },
    );
    this.pending.add(sent);
    void sent.finally(() => this.pending.delete(sent));
  }

  async forceFlush(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
  }
}
