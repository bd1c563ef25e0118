import { describe, expect, it } from 'vitest';
import { acceptable, isJsonContentType } from '../../src/http/media.ts';

describe('Accept negotiation (Streamable HTTP: the client accepts JSON and event streams)', () => {
  it.each([
    [undefined, false, false],
    ['', false, false],
    ['application/json, text/event-stream', true, true],
    ['text/event-stream, application/json', true, true],
    ['application/json', true, false],
    ['text/event-stream', false, true],
    ['APPLICATION/JSON', true, false],
    ['application/json; charset=utf-8', true, false],
    ['application/json;q=0.5, text/event-stream;q=0.1', true, true],
    ['application/json;q=0, text/event-stream', false, true],
    ['application/json;q=0.000, text/event-stream', false, true],
    ['*/*', true, false],
    ['application/*', true, false],
    ['text/*', false, true],
    ['text/html', false, false],
    ['application/jsonx', false, false],
    ['application/xml, text/plain', false, false],
  ])('Accept %j allows json=%s sse=%s', (accept, json, sse) => {
    expect(acceptable(accept)).toEqual({ json, sse });
  });
});

describe('Content-Type check (Streamable HTTP: a POST body is JSON)', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON;charset="UTF-8"', true],
    ['application/json;charset=latin1', false],
    ['application/json-patch+json', false],
    ['application/jsonp', false],
    ['text/plain', false],
    ['text/plain;charset=UTF-8', false],
    ['', false],
    [undefined, false],
  ])('Content-Type %j is JSON: %s', (contentType, ok) => {
    expect(isJsonContentType(contentType)).toBe(ok);
  });
});
