import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { McpError } from '../../src/protocol/errors.ts';
import type { ResourceContext } from '../../src/resources/provider.ts';
import type { InvokeCompanion } from '../../src/outputs/companion/ask.ts';
import { remoteStoredOutputs } from '../../src/outputs/companion/client.ts';
import {
  parseStoredReadRequest,
  parseStoredReadResponse,
  STORED_READ_VERSION,
} from '../../src/outputs/companion/contract.ts';
import { createStoredReadHandler } from '../../src/outputs/companion/handler.ts';
import { storedOutputs } from '../../src/outputs/reader.ts';
import { memoryStorage } from '../../src/storage/memory.ts';
import { StorageError } from '../../src/storage/storage.ts';

const ID = '0123456789abcdef0123456789abcdef';
const URI = `mcp-output://outputs/${ID}`;
const ctx: ResourceContext = { era: 'handshake', requestId: 'req-9', log: silentLogger };

describe('stored-read contract', () => {
  it.each([
    ['a minimal request', { version: 1, uri: URI, requestId: 'r', era: 'legacy' }, true],
    [
      'a request with a principal',
      { version: 1, uri: URI, requestId: 'r', era: 'modern', principal: 'p' },
      true,
    ],
    ['another version', { version: 2, uri: URI, requestId: 'r', era: 'legacy' }, false],
    ['no uri', { version: 1, requestId: 'r', era: 'legacy' }, false],
    ['an empty uri', { version: 1, uri: '', requestId: 'r', era: 'legacy' }, false],
    ['an unknown era', { version: 1, uri: URI, requestId: 'r', era: 'future' }, false],
    ['an unknown field', { version: 1, uri: URI, requestId: 'r', era: 'legacy', key: 'outputs/x' }, false],
    [
      'a principal that is not a string',
      { version: 1, uri: URI, requestId: 'r', era: 'legacy', principal: 1 },
      false,
    ],
    ['an array', [], false],
    ['null', null, false],
  ])('the companion checks requests: %s', (_what, value, valid) => {
    expect(parseStoredReadRequest(value) !== undefined).toBe(valid);
  });

  it.each([
    ['found', { version: 1, status: 'found', contents: [{ uri: URI, text: 'x' }], ttlMs: 5 }, true],
    [
      'found with a blob',
      { version: 1, status: 'found', contents: [{ uri: URI, blob: 'AA==' }], ttlMs: 0 },
      true,
    ],
    ['not found', { version: 1, status: 'not_found' }, true],
    ['unavailable', { version: 1, status: 'unavailable' }, true],
    ['found without contents', { version: 1, status: 'found', contents: [], ttlMs: 5 }, false],
    [
      'contents with both text and blob',
      { version: 1, status: 'found', contents: [{ uri: URI, text: 'x', blob: 'AA==' }], ttlMs: 5 },
      false,
    ],
    [
      'a negative ttl',
      { version: 1, status: 'found', contents: [{ uri: URI, text: 'x' }], ttlMs: -1 },
      false,
    ],
    ['an unknown status', { version: 1, status: 'maybe' }, false],
    ['another version', { version: 2, status: 'not_found' }, false],
  ])('the MCP function checks responses: %s', (_what, value, valid) => {
    expect(parseStoredReadResponse(value) !== undefined).toBe(valid);
  });
});

describe('remote stored outputs (the MCP function side)', () => {
  const answering =
    (answer: unknown, seen: string[] = []): InvokeCompanion =>
    async (payload) => {
      seen.push(payload);
      return JSON.stringify(answer);
    };

  it('sends a versioned request and returns the contents with a private cache hint', async () => {
    const seen: string[] = [];
    const provider = remoteStoredOutputs({
      prefix: 'outputs/',
      invoke: answering(
        { version: 1, status: 'found', contents: [{ uri: URI, text: 'hi' }], ttlMs: 1234 },
        seen,
      ),
    });
    const read = await provider.read(URI, { ...ctx, principal: 'alice' });
    expect(read).toEqual({
      contents: [{ uri: URI, text: 'hi' }],
      cache: { ttlMs: 1234, cacheScope: 'private' },
    });
    expect(JSON.parse(seen[0]!)).toEqual({
      version: STORED_READ_VERSION,
      uri: URI,
      requestId: 'req-9',
      era: 'legacy',
      principal: 'alice',
    });
  });

  it('never invokes the companion for a malformed or foreign URI', async () => {
    const seen: string[] = [];
    const provider = remoteStoredOutputs({ prefix: 'outputs/', invoke: answering({}, seen) });
    for (const uri of [`mcp-output://other/${ID}`, `mcp-output://outputs/../${ID}`, 'mcp-output:']) {
      expect(provider.owns(uri)).toBe(true);
      expect(await provider.read(uri, ctx)).toBeUndefined();
    }
    expect(seen).toEqual([]);
  });

  it('answers not found when the companion says so', async () => {
    const provider = remoteStoredOutputs({
      prefix: 'outputs/',
      invoke: answering({ version: 1, status: 'not_found' }),
    });
    expect(await provider.read(URI, ctx)).toBeUndefined();
  });

  it.each<[string, InvokeCompanion]>([
    ['the invoke fails', async () => Promise.reject(new Error('Rate exceeded at arn:aws:lambda:...'))],
    ['the companion reports storage unavailable', answering({ version: 1, status: 'unavailable' })],
    ['the companion refused the request', answering({ version: 1, status: 'invalid_request' })],
    ['the answer is not JSON', async () => 'Task timed out'],
    ['the answer has another version', answering({ version: 2, status: 'found' })],
    [
      'the contents are for another URI',
      answering({ version: 1, status: 'found', contents: [{ uri: 'docs://x', text: 'x' }], ttlMs: 1 }),
    ],
  ])('answers -32603 with a safe message when %s', async (_what, invoke) => {
    const error = await remoteStoredOutputs({ prefix: 'outputs/', invoke })
      .read(URI, ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32603);
    expect((error as McpError).message).toBe(
      'The stored output could not be read right now (request id req-9); try again shortly.',
    );
  });
});

describe('companion handler', () => {
  it('reads through the in-process provider and answers each outcome in the contract', async () => {
    const storage = memoryStorage();
    const offloader = createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 10, ttlDays: 1 });
    const link = await offloader.store(
      { data: 'stored text', mimeType: 'text/plain' },
      { tool: 't', requestId: 'r', log: silentLogger },
    );
    const handle = createStoredReadHandler(storedOutputs({ storage, prefix: 'outputs/' }), silentLogger);
    const found = await handle({ version: 1, uri: link.uri, requestId: 'r', era: 'modern' });
    expect(found).toMatchObject({
      version: 1,
      status: 'found',
      contents: [{ uri: link.uri, text: 'stored text' }],
    });
    expect(parseStoredReadResponse(found)).toBeDefined();
    expect(await handle({ version: 1, uri: URI, requestId: 'r', era: 'legacy' })).toEqual({
      version: 1,
      status: 'not_found',
    });
    expect(await handle({ version: 1, uri: 'docs://x', requestId: 'r', era: 'legacy' })).toEqual({
      version: 1,
      status: 'not_found',
    });
    expect(await handle({ uri: URI })).toEqual({ version: 1, status: 'invalid_request' });
  });

  it('answers unavailable, without detail, when storage fails', async () => {
    const provider = storedOutputs({
      storage: {
        get: async (key) => {
          throw new StorageError('get', key, { cause: new Error('socket hang up') });
        },
      },
      prefix: 'outputs/',
    });
    const answer = await createStoredReadHandler(
      provider,
      silentLogger,
    )({ version: 1, uri: URI, requestId: 'r', era: 'legacy' });
    expect(answer).toEqual({ version: 1, status: 'unavailable' });
  });
});
