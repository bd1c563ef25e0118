import type { HttpResponse } from '../wire/types.ts';
import type { Logger } from '../log.ts';
import { clientText } from '../protocol/client-text.ts';

/**
 * An event field without the type API Gateway always gives it (a direct invoke or a test event can send anything):
 * the event cannot be translated into a request.
 */
class MalformedEventError extends Error {
  constructor(readonly field: string) {
    super(`Malformed event: ${field}`);
    this.name = 'MalformedEventError';
  }
}

/** The fields of an event or of one of its objects. */
export type EventFields = Readonly<Record<string, unknown>>;

const isFields = (value: unknown): value is EventFields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object field (or the event itself); absent (undefined or null) only when `optional`. */
export function objectField(value: unknown, field: string, optional: true): EventFields | undefined;
export function objectField(value: unknown, field: string, optional?: false): EventFields;
export function objectField(value: unknown, field: string, optional = false): EventFields | undefined {
  if (optional && (value === undefined || value === null)) return undefined;
  if (!isFields(value)) throw new MalformedEventError(field);
  return value;
}

/** A text field, absent when undefined or null. */
export function textField(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new MalformedEventError(field);
  return value;
}

/** A boolean field, absent when undefined or null. */
function flagField(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new MalformedEventError(field);
  return value;
}

/** A list of texts (payload 2.0 cookies, one multi-value header), absent when undefined or null. */
export function textListField(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw new MalformedEventError(field);
  return value;
}

/** A map of texts (headers): each entry a text; an absent entry (undefined or null) is left out. */
export function textMapField(value: unknown, field: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const [name, entry] of Object.entries(objectField(value, field, true) ?? {})) {
    const text = textField(entry, `${field}.${name}`);
    if (text !== undefined) map[name] = text;
  }
  return map;
}

/** A map of text lists (multi-value headers and query parameters); an absent entry is left out. */
export function textListMapField(value: unknown, field: string): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const [name, entry] of Object.entries(objectField(value, field, true) ?? {})) {
    const list = textListField(entry, `${field}.${name}`);
    if (list !== undefined) map[name] = list;
  }
  return map;
}

/** API Gateway's own answer to a request it cannot make an event of: 400 with its "Bad Request" message. */
const BAD_REQUEST: HttpResponse = {
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: '{"message":"Bad Request"}',
};

/** A translated event: its request, or the answer to an event that could not be translated. */
export type Translation<R> = { request: R } | { rejected: HttpResponse };

/**
 * Runs a translation, and answers a malformed event as API Gateway answers a malformed request (400, not a
 * failed invocation), logging which field it was (its name capped, never its value: the event is the caller's).
 */
export function translateEvent<E, R>(translate: (event: E) => R, event: E, log: Logger): Translation<R> {
  try {
    return { request: translate(event) };
  } catch (error) {
    if (!(error instanceof MalformedEventError)) throw error;
    log.warn('Malformed event answered 400', { field: clientText(error.field) });
    return { rejected: { ...BAD_REQUEST, headers: { ...BAD_REQUEST.headers } } };
  }
}

/** The request body of an API Gateway proxy event (payload 1.0 or 2.0) as text: base64 decoded when so marked. */
export function eventBody(event: EventFields): string | undefined {
  const body = textField(event.body, 'body');
  if (body === undefined) return undefined;
  return flagField(event.isBase64Encoded, 'isBase64Encoded')
    ? Buffer.from(body, 'base64').toString('utf8')
    : body;
}
