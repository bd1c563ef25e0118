/**
 * An OTLP/HTTP trace receiver for tests: what an OpenTelemetry exporter posts to `/v1/traces`, in protobuf or in
 * OTLP/JSON, gzip'd or not, decoded into plain spans a test can wait for and check field by field.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import {
  decodeTraceRequest,
  type OtlpAnyValue,
  type OtlpKeyValue,
  type OtlpSpan,
  type OtlpTraceRequest,
} from './otlp-protobuf.ts';

/**
 * An attribute value as received: OTLP's `AnyValue`. An int64 is a number when it is a safe integer and a bigint
 * otherwise; bytes are bytes, a key-value list an object, and an empty value null.
 */
export type ReceivedAttributeValue =
  | string
  | number
  | bigint
  | boolean
  | Uint8Array
  | null
  | ReceivedAttributeValue[]
  | { [key: string]: ReceivedAttributeValue };

/** One span as the receiver decoded it from an export request, with its resource and scope. */
export interface ReceivedSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** 16 lowercase hex digits, or '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, ReceivedAttributeValue>;
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error; the message is '' when none was sent. */
  status: { code: number; message: string };
  links: { traceId: string; spanId: string; attributes: Record<string, ReceivedAttributeValue> }[];
  events: { name: string; attributes: Record<string, ReceivedAttributeValue> }[];
  /** The attributes of the resource the span came with. */
  resource: Record<string, ReceivedAttributeValue>;
  /** The name of its instrumentation scope. */
  scope: string;
  /** How the request that carried it was encoded. */
  encoding: 'protobuf' | 'json';
}

/** A running OTLP/HTTP trace receiver on loopback. */
export interface OtlpReceiver {
  /** Its base URL (`http://127.0.0.1:PORT`): exporters configured by endpoint append `/v1/traces`. */
  url: string;
  /** Every span received so far, in arrival order. */
  spans: ReceivedSpan[];
  /** Every POST received, accepted or not, in arrival order. */
  posts: { path: string; contentType: string }[];
  /**
   * Resolves with the spans once `predicate(spans)` holds; rejects after `timeoutMs` (default 10000) with a message
   * listing the names of the spans seen.
   */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/** The largest body the receiver takes, before and after decompression. */
const MAX_BODY = 8 * 1024 * 1024;
const TRACES_PATH = '/v1/traces';
const fail = (message: string): never => {
  throw new Error(message);
};
const absent = (value: unknown): value is undefined | null => value === undefined || value === null;
const list = <T>(value: T[] | undefined, what: string): T[] =>
  absent(value) ? [] : Array.isArray(value) ? value : fail(`${what} is not a list`);
const text = (value: unknown, what: string): string =>
  absent(value) ? '' : typeof value === 'string' ? value : fail(`${what} is not a string`);
/** An enum, which OTLP/JSON writes as an integer. */
const enumOf = (value: unknown, what: string): number =>
  absent(value) ? 0 : Number.isInteger(value) ? (value as number) : fail(`${what} is not an integer`);

/** A trace or span id in lowercase hex; '' only where a root span leaves its parent out. */
function hexId(value: unknown, digits: number, what: string, optional = false): string {
  const id = text(value, what).toLowerCase();
  if ((optional && id === '') || (id.length === digits && /^[0-9a-f]+$/.test(id))) return id;
  return fail(`${what} is not ${digits} hex digits: ${JSON.stringify(value)}`);
}

/** An int64, which OTLP/JSON may write as a number or a decimal string. */
function int64(value: unknown, what: string): bigint {
  if (absent(value)) return 0n;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  return fail(`${what} is not an integer: ${JSON.stringify(value)}`);
}

function valueOf(v: OtlpAnyValue | undefined): ReceivedAttributeValue {
  if (absent(v)) return null;
  if (v.stringValue !== undefined) return text(v.stringValue, 'stringValue');
  if (v.boolValue !== undefined)
    return typeof v.boolValue === 'boolean' ? v.boolValue : fail('boolValue is not a boolean');
  if (v.intValue !== undefined) {
    const n = int64(v.intValue, 'intValue');
    return n >= Number.MIN_SAFE_INTEGER && n <= Number.MAX_SAFE_INTEGER ? Number(n) : n;
  }
  if (v.doubleValue !== undefined) {
    // OTLP/JSON writes NaN and the infinities as strings.
    const d = typeof v.doubleValue === 'string' ? Number(v.doubleValue) : v.doubleValue;
    return typeof d === 'number' ? d : fail('doubleValue is not a number');
  }
  if (v.arrayValue !== undefined)
    return list(v.arrayValue?.values, 'arrayValue.values').map((i) => valueOf(i));
  if (v.kvlistValue !== undefined) return attributesOf(v.kvlistValue?.values);
  if (typeof v.bytesValue === 'string') return new Uint8Array(Buffer.from(v.bytesValue, 'base64'));
  return v.bytesValue instanceof Uint8Array ? v.bytesValue : null;
}

function attributesOf(keyValues: OtlpKeyValue[] | undefined): Record<string, ReceivedAttributeValue> {
  // fromEntries defines each key as the object's own, `__proto__` included.
  return Object.fromEntries(
    list(keyValues, 'attributes').map((kv) => [text(kv.key, 'key'), valueOf(kv.value)] as const),
  );
}

function spanOf(
  s: OtlpSpan,
  resource: ReceivedSpan['resource'],
  scope: string,
  encoding: ReceivedSpan['encoding'],
): ReceivedSpan {
  return {
    traceId: hexId(s.traceId, 32, 'traceId'),
    spanId: hexId(s.spanId, 16, 'spanId'),
    parentSpanId: hexId(s.parentSpanId, 16, 'parentSpanId', true),
    name: text(s.name, 'name'),
    kind: enumOf(s.kind, 'kind'),
    startTimeUnixNano: int64(s.startTimeUnixNano, 'startTimeUnixNano'),
    endTimeUnixNano: int64(s.endTimeUnixNano, 'endTimeUnixNano'),
    attributes: attributesOf(s.attributes),
    status: {
      code: enumOf(s.status?.code, 'status.code'),
      message: text(s.status?.message, 'message'),
    },
    links: list(s.links, 'links').map((link) => ({
      traceId: hexId(link.traceId, 32, 'link traceId'),
      spanId: hexId(link.spanId, 16, 'link spanId'),
      attributes: attributesOf(link.attributes),
    })),
    events: list(s.events, 'events').map((e) => ({
      name: text(e.name, 'event name'),
      attributes: attributesOf(e.attributes),
    })),
    resource,
    scope,
    encoding,
  };
}

/** The spans of a decoded export request, in the order it holds them; throws on a request of the wrong shape. */
function spansOf(request: unknown, encoding: ReceivedSpan['encoding']): ReceivedSpan[] {
  if (typeof request !== 'object' || absent(request) || Array.isArray(request))
    fail('the request is not an object');
  const spans: ReceivedSpan[] = [];
  for (const { resource, scopeSpans } of list((request as OtlpTraceRequest).resourceSpans, 'resourceSpans')) {
    const attributes = attributesOf(resource?.attributes);
    for (const ss of list(scopeSpans, 'scopeSpans')) {
      const scope = text(ss.scope?.name, 'scope name');
      for (const s of list(ss.spans, 'spans')) spans.push(spanOf(s, attributes, scope, encoding));
    }
  }
  return spans;
}

/** What the receiver answers, and the spans a request it accepted carried. */
interface Reply {
  status: number;
  type: string;
  body: string;
  spans?: ReceivedSpan[];
}

const refuse = (status: number, body: string): Reply => ({ status, type: 'text/plain', body });

/** The body, or undefined when it is over the cap (what is over is read and dropped, so the answer arrives). */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY) chunks.push(chunk);
  }
  return size <= MAX_BODY ? Buffer.concat(chunks) : undefined;
}

async function receive(req: IncomingMessage, path: string): Promise<Reply> {
  if (path !== TRACES_PATH) return refuse(404, `no such path: ${path} (traces go to ${TRACES_PATH})`);
  if (req.method !== 'POST') return refuse(405, `${req.method} ${TRACES_PATH}: only POST`);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const encoding =
    type === 'application/x-protobuf' ? 'protobuf' : type === 'application/json' ? 'json' : undefined;
  if (!encoding)
    return refuse(415, `Content-Type ${type || '(none)'}: application/x-protobuf or application/json`);
  const coding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (coding !== 'gzip' && coding !== 'identity')
    return refuse(415, `Content-Encoding ${coding}: gzip or none`);
  const raw = await readBody(req);
  if (!raw) return refuse(413, 'a body over 8 MB');
  let body: Buffer;
  try {
    body = coding === 'gzip' ? await promisify(gunzip)(raw, { maxOutputLength: MAX_BODY }) : raw;
  } catch (error) {
    const over = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    return over
      ? refuse(413, 'a body over 8 MB once gunzipped')
      : refuse(400, `gzip: ${(error as Error).message}`);
  }
  try {
    const request = encoding === 'protobuf' ? decodeTraceRequest(body) : JSON.parse(body.toString('utf8'));
    const spans = spansOf(request, encoding);
    // An empty ExportTraceServiceResponse: no bytes in protobuf, `{}` in JSON.
    return encoding === 'protobuf'
      ? { status: 200, type: 'application/x-protobuf', body: '', spans }
      : { status: 200, type: 'application/json', body: '{}', spans };
  } catch (error) {
    return refuse(400, `not an ExportTraceServiceRequest in ${encoding}: ${(error as Error).message}`);
  }
}

/**
 * Starts an OTLP/HTTP trace receiver on a free loopback port, for a test to point an OpenTelemetry exporter at and
 * check the spans it sends. It takes protobuf and OTLP/JSON, gzip'd or not, refuses anything else with a 4xx and
 * a short reason, and keeps serving either way.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const posts: OtlpReceiver['posts'] = [];
  /** The checks of every waitFor still waiting, each with how it gives up when the receiver closes. */
  const waiting = new Map<() => void, (error: Error) => void>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'POST') posts.push({ path, contentType: req.headers['content-type'] ?? '' });
    void receive(req, path)
      .catch((error: Error) => refuse(400, `unreadable request: ${error.message}`))
      .then((reply) => {
        if (reply.spans?.length) {
          spans.push(...reply.spans);
          for (const check of [...waiting.keys()]) check();
        }
        res.writeHead(reply.status, { 'content-type': reply.type }).end(reply.body);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const waitFor = (predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs = 10_000) =>
    new Promise<ReceivedSpan[]>((resolve, reject) => {
      const settle = (end: () => void) => {
        clearTimeout(timer);
        waiting.delete(check);
        end();
      };
      const check = () => {
        let held: boolean;
        try {
          held = predicate(spans);
        } catch (error) {
          return settle(() => reject(error));
        }
        if (held) settle(() => resolve([...spans]));
      };
      const timer = setTimeout(() => {
        const names = spans.map((s) => s.name).join(', ') || 'none';
        settle(() =>
          reject(new Error(`no match within ${timeoutMs} ms; spans seen (${spans.length}): ${names}`)),
        );
      }, timeoutMs);
      waiting.set(check, (error) => settle(() => reject(error)));
      check();
    });
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    posts,
    waitFor,
    close: async () => {
      for (const giveUp of [...waiting.values()]) giveUp(new Error('the OTLP receiver closed'));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
