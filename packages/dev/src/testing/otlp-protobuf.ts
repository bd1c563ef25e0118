/**
 * A minimal reader of the protobuf wire format, enough to decode an OTLP `ExportTraceServiceRequest` (the field
 * numbers of opentelemetry-proto's collector/trace/v1, trace/v1, resource/v1 and common/v1 messages) into the shape
 * OTLP/JSON gives the same request, so that one path turns either encoding into spans. Fields it does not need are
 * skipped, as protobuf asks of a reader.
 */

/** An OTLP `AnyValue` as OTLP/JSON writes it; from protobuf, int64 comes as a bigint and bytes as bytes. */
export interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number | bigint;
  doubleValue?: number | string;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string | Uint8Array;
}

/** An OTLP `KeyValue`: one attribute. */
export interface OtlpKeyValue {
  key?: string;
  value?: OtlpAnyValue;
}

/** An OTLP `Span` as OTLP/JSON writes it (ids in hex), with the fields the receiver keeps. */
export interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  startTimeUnixNano?: string | number | bigint;
  endTimeUnixNano?: string | number | bigint;
  attributes?: OtlpKeyValue[];
  events?: { name?: string; attributes?: OtlpKeyValue[] }[];
  links?: { traceId?: string; spanId?: string; attributes?: OtlpKeyValue[] }[];
  status?: { code?: number; message?: string };
}

/** An OTLP `ExportTraceServiceRequest` as OTLP/JSON writes it. */
export interface OtlpTraceRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

/** One field of a message: its number, its wire type, and its value as an integer (wire types 0, 1, 5) or bytes. */
interface Field {
  no: number;
  wire: number;
  int: bigint;
  bytes: Uint8Array;
}

const NO_BYTES = new Uint8Array(0);
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The fields of one message, in the order written; throws on bytes that are no protobuf message. */
function* fields(bytes: Uint8Array): Generator<Field> {
  let pos = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (pos >= bytes.length) throw new Error('a varint runs past the end of its message');
      const byte = bytes[pos++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asUintN(64, value);
    }
    throw new Error('a varint longer than 10 bytes');
  };
  const take = (length: number): Uint8Array => {
    if (length > bytes.length - pos) throw new Error('a field runs past the end of its message');
    return bytes.subarray(pos, (pos += length));
  };
  const littleEndian = (b: Uint8Array) => {
    const view = new DataView(b.buffer, b.byteOffset, b.length);
    return b.length === 8 ? view.getBigUint64(0, true) : BigInt(view.getUint32(0, true));
  };
  while (pos < bytes.length) {
    const key = varint();
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (no === 0) throw new Error('a field numbered 0');
    if (wire === 0) yield { no, wire, int: varint(), bytes: NO_BYTES };
    else if (wire === 2) yield { no, wire, int: 0n, bytes: take(Number(varint())) };
    else if (wire === 1 || wire === 5) {
      const fixed = take(wire === 1 ? 8 : 4);
      yield { no, wire, int: littleEndian(fixed), bytes: fixed };
    } else throw new Error(`wire type ${wire} (field ${no}), which OTLP never writes`);
  }
}

/** Calls the handler of each field's number, for every field of the message; other fields are skipped. */
function read(bytes: Uint8Array, handlers: Record<number, (field: Field) => void>): void {
  for (const field of fields(bytes)) handlers[field.no]?.(field);
}

function wire(field: Field, expected: number): Field {
  if (field.wire !== expected)
    throw new Error(`field ${field.no} has wire type ${field.wire} where ${expected} was expected`);
  return field;
}

const nested = (field: Field) => wire(field, 2).bytes;
const text = (field: Field) => UTF8.decode(nested(field));
const hex = (field: Field) => Buffer.from(nested(field)).toString('hex');
const fixed64 = (field: Field) => wire(field, 1).int;
const enumValue = (field: Field) => Number(BigInt.asIntN(32, wire(field, 0).int));
const double = (field: Field) => {
  const { buffer, byteOffset } = wire(field, 1).bytes;
  return new DataView(buffer, byteOffset, 8).getFloat64(0, true);
};

function anyValue(bytes: Uint8Array): OtlpAnyValue {
  // A oneof: the last of its fields written wins.
  let value: OtlpAnyValue = {};
  read(bytes, {
    1: (f) => (value = { stringValue: text(f) }),
    2: (f) => (value = { boolValue: wire(f, 0).int !== 0n }),
    3: (f) => (value = { intValue: BigInt.asIntN(64, wire(f, 0).int) }),
    4: (f) => (value = { doubleValue: double(f) }),
    5: (f) => {
      const values: OtlpAnyValue[] = [];
      read(nested(f), { 1: (item) => values.push(anyValue(nested(item))) });
      value = { arrayValue: { values } };
    },
    6: (f) => (value = { kvlistValue: { values: keyValues(nested(f), 1) } }),
    7: (f) => (value = { bytesValue: nested(f).slice() }),
  });
  return value;
}

/** The repeated KeyValue field numbered `no` of a message. */
function keyValues(bytes: Uint8Array, no: number): OtlpKeyValue[] {
  const list: OtlpKeyValue[] = [];
  read(bytes, {
    [no]: (f) => {
      const kv: OtlpKeyValue = {};
      read(nested(f), { 1: (k) => (kv.key = text(k)), 2: (v) => (kv.value = anyValue(nested(v))) });
      list.push(kv);
    },
  });
  return list;
}

function span(bytes: Uint8Array): OtlpSpan {
  const s: OtlpSpan = { attributes: keyValues(bytes, 9) };
  const events: NonNullable<OtlpSpan['events']> = [];
  const links: NonNullable<OtlpSpan['links']> = [];
  read(bytes, {
    1: (f) => (s.traceId = hex(f)),
    2: (f) => (s.spanId = hex(f)),
    4: (f) => (s.parentSpanId = hex(f)),
    5: (f) => (s.name = text(f)),
    6: (f) => (s.kind = enumValue(f)),
    7: (f) => (s.startTimeUnixNano = fixed64(f)),
    8: (f) => (s.endTimeUnixNano = fixed64(f)),
    11: (f) => {
      const event: (typeof events)[number] = { attributes: keyValues(nested(f), 3) };
      read(nested(f), { 2: (name) => (event.name = text(name)) });
      events.push(event);
    },
    13: (f) => {
      const link: (typeof links)[number] = { attributes: keyValues(nested(f), 4) };
      read(nested(f), { 1: (id) => (link.traceId = hex(id)), 2: (id) => (link.spanId = hex(id)) });
      links.push(link);
    },
    15: (f) => {
      const status: NonNullable<OtlpSpan['status']> = {};
      read(nested(f), { 2: (m) => (status.message = text(m)), 3: (c) => (status.code = enumValue(c)) });
      s.status = status;
    },
  });
  return { ...s, events, links };
}

/**
 * Decodes an `ExportTraceServiceRequest` in protobuf wire format into its OTLP/JSON shape; throws on bytes that are
 * not one.
 */
export function decodeTraceRequest(body: Uint8Array): OtlpTraceRequest {
  // A plain view of a Buffer: its slice() would share memory rather than copy.
  const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  const resourceSpans: NonNullable<OtlpTraceRequest['resourceSpans']> = [];
  read(bytes, {
    1: (rs) => {
      const scopes: { scope?: { name?: string }; spans: OtlpSpan[] }[] = [];
      const entry: (typeof resourceSpans)[number] = { scopeSpans: scopes };
      read(nested(rs), {
        1: (resource) => (entry.resource = { attributes: keyValues(nested(resource), 1) }),
        2: (ss) => {
          const scopeSpans: { scope?: { name?: string }; spans: OtlpSpan[] } = { spans: [] };
          read(nested(ss), {
            1: (scope) => read(nested(scope), { 1: (name) => (scopeSpans.scope = { name: text(name) }) }),
            2: (s) => scopeSpans.spans.push(span(nested(s))),
          });
          scopes.push(scopeSpans);
        },
      });
      resourceSpans.push(entry);
    },
  });
  return { resourceSpans };
}
