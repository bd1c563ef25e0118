import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/limits.ts';
import { canonicalJson, nestsDeeperThan } from '../../src/protocol/json.ts';
import { answerOf } from '../../src/asking/desk.ts';
import { fetchJsonObject } from '../../src/auth/remote-json.ts';
import { ErrorCode } from '../../src/protocol/errors.ts';
import { parseMessage } from '../../src/protocol/jsonrpc.ts';
import { parseTaskJob } from '../../src/tasks/job.ts';

/** JSON text of arrays nested `depth` levels deep. */
const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** JSON text of objects nested `depth` levels deep, each a member "a" of the one outside it. */
const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
/** A request whose arguments make the whole message nest exactly `depth` levels (the message is level 1). */
const callNesting = (depth: number) =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"v":${arrays(depth - 3)}}}}`;

describe('nestsDeeperThan', () => {
  it.each([
    ['a string', 'x', 0],
    ['a number', 1, 0],
    ['null', null, 0],
    ['an empty object', {}, 1],
    ['an empty array', [], 1],
    ['arrays', JSON.parse(arrays(7)), 7],
    ['objects', JSON.parse(objects(7)), 7],
    ['an array in an object in an array', [1, 'x', { a: [null, [2]] }], 4],
  ])('measures %s as %i levels', (_name, value, depth) => {
    expect(nestsDeeperThan(value, depth)).toBe(false);
    if (depth > 0) expect(nestsDeeperThan(value, depth - 1)).toBe(true);
  });

  it('finds the deep branch wherever it is, not only in the first member', () => {
    const value = { a: 1, b: [{}, [], 'x'], c: { d: { e: [[[]]] } } };
    expect(nestsDeeperThan(value, 5)).toBe(true);
    expect(nestsDeeperThan(value, 6)).toBe(false);
  });

  it('is safe on values far deeper than the stack allows, and on a cycle', () => {
    expect(nestsDeeperThan(JSON.parse(arrays(100_000)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(objects(100_000)), MAX_JSON_DEPTH)).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(nestsDeeperThan(cyclic, MAX_JSON_DEPTH)).toBe(true);
  });
});

describe('parseMessage bounds nesting', () => {
  it(`accepts a message nesting exactly ${MAX_JSON_DEPTH} levels`, () => {
    expect(parseMessage(callNesting(MAX_JSON_DEPTH)).kind).toBe('request');
  });

  it.each([
    ['one level more than the limit', callNesting(MAX_JSON_DEPTH + 1)],
    ['arguments 10,000 deep', callNesting(10_000)],
    ['a batch 10,000 deep', arrays(10_000)],
    ['an answer 10,000 deep', `{"jsonrpc":"2.0","id":"q","result":${objects(10_000)}}`],
  ])('refuses %s with a Parse error naming the limit and no id', (_name, body) => {
    const parsed = parseMessage(body);
    expect(parsed).toMatchObject({ kind: 'invalid', id: null });
    if (parsed.kind !== 'invalid') return;
    expect(parsed.error.code).toBe(ErrorCode.ParseError);
    expect(parsed.error.message).toBe(
      `Parse error: the body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
    );
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every level within the limit', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
    expect(() => canonicalJson(JSON.parse(arrays(MAX_JSON_DEPTH)))).not.toThrow();
  });

  it('refuses a value deeper than the limit with its own error, not a stack overflow', () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 10_000])
      expect(() => canonicalJson(JSON.parse(objects(depth)))).toThrow(
        `canonicalJson: the value nests more than ${MAX_JSON_DEPTH} levels deep`,
      );
  });
});

describe("the answer desk's measure of an answer", () => {
  it('fails a call whose answer nests deeper than the limit, instead of overflowing the stack', () => {
    const result = JSON.parse(objects(10_000)) as Record<string, unknown>;
    expect(answerOf({ jsonrpc: '2.0', id: 'q', result })).toEqual({
      failure: `it nested more than ${MAX_JSON_DEPTH} levels deep`,
    });
  });

  it('passes on an answer within the limit', () => {
    const result = JSON.parse(objects(MAX_JSON_DEPTH - 1)) as Record<string, unknown>;
    expect(answerOf({ jsonrpc: '2.0', id: 'q', result })).toEqual({ result });
  });
});

describe("a task worker's job", () => {
  const job = (clientCapabilities: unknown) => ({
    version: 1,
    taskId: '0f8fad5bd9cb469fa16570867728950e',
    round: 1,
    era: 'legacy',
    protocolVersion: '2025-11-25',
    clientCapabilities,
  });

  it('is not one when the capabilities it carries nest deeper than the limit', () => {
    expect(parseTaskJob(job(JSON.parse(`{"x":${objects(10_000)}}`)))).toBeUndefined();
  });

  it('is read when they nest within it', () => {
    expect(parseTaskJob(job(JSON.parse(objects(MAX_JSON_DEPTH))))).toBeDefined();
  });
});

describe("an issuer's JSON document", () => {
  const serving = (text: string) => () =>
    Promise.resolve(new Response(text, { status: 200, headers: { 'content-type': 'application/json' } }));

  it('is refused when it nests deeper than the limit', async () => {
    const fetch = serving(`{"keys":${arrays(10_000)}}`);
    await expect(fetchJsonObject('https://issuer.example/jwks', { fetch })).rejects.toThrow(
      `GET https://issuer.example/jwks returned JSON nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
  });

  it('is read when it nests within it', async () => {
    const fetch = serving(`{"keys":${arrays(MAX_JSON_DEPTH - 1)}}`);
    await expect(fetchJsonObject('https://issuer.example/jwks', { fetch })).resolves.toHaveProperty('keys');
  });
});
