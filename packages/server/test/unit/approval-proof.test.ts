import { describe, expect, it } from 'vitest';
import { approvalAnswer, approvalPath } from '../../src/approval/ask.ts';
import { memoryApprovalLedger } from '../../src/approval/ledger.ts';
import { argumentsDigest, createProofCodec } from '../../src/approval/proof.ts';

/** The approval gate's pure parts: proofs, the ledger of used approvals, and how the person is asked. */

const SECRET = 'sixteen bytes or more of secret';
const binding = { tool: 'erase', arguments: { record: 'alpha', n: 1 }, principal: 'caller-a' };

describe('approval proofs', () => {
  const keys = { secret: SECRET };
  it('a proof checks for exactly the binding it was issued for, in any key order', async () => {
    const codec = createProofCodec(keys);
    const { proof, expiresAt } = await codec.issue(binding, 60_000);
    expect(proof).toMatch(/^a2\.[0-9a-f]{8}\.[0-9a-z]+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    const opened = await codec.check(proof, { ...binding, arguments: { n: 1, record: 'alpha' } });
    expect(opened).toEqual({ id: expect.any(String), expiresAt: Math.ceil(expiresAt / 1000) * 1000 });
  });

  it.each([
    ['another caller', { ...binding, principal: 'caller-b' }],
    ['no caller', { tool: binding.tool, arguments: binding.arguments }],
    ['another tool', { ...binding, tool: 'erase_all' }],
    ['other arguments', { ...binding, arguments: { record: 'alpha', n: 2 } }],
  ])('%s: invalid', async (_label, other) => {
    const codec = createProofCodec(keys);
    const { proof } = await codec.issue(binding, 60_000);
    expect(await codec.check(proof, other)).toBe('invalid');
  });

  it.each([
    ['null and a number too large for a double (1e999 parses as Infinity)', { n: null }, { n: Infinity }],
    ['Infinity and -Infinity', { n: Infinity }, { n: -Infinity }],
    ['null and NaN', [null], [NaN]],
    ['the string "Infinity" and Infinity', { n: 'Infinity' }, { n: Infinity }],
  ])('arguments that differ only in %s have different digests', (_label, a, b) => {
    expect(argumentsDigest(a)).not.toBe(argumentsDigest(b));
  });

  it('expires', async () => {
    let now = 1_000_000;
    const codec = createProofCodec(keys, () => now);
    const { proof } = await codec.issue(binding, 60_000);
    now += 59_000;
    expect(await codec.check(proof, binding)).not.toBe('expired');
    now += 2_000;
    expect(await codec.check(proof, binding)).toBe('expired');
  });

  it.each([
    undefined,
    42,
    '',
    'a1',
    'a1.abc.AAAAAAAAAAAAAAAAAAAAAA.' + 'A'.repeat(43),
    'a2.00000000.abc.AAAAAAAAAAAAAAAAAAAAAA.' + 'A'.repeat(43),
    'x'.repeat(10_000),
  ])('malformed %j: invalid', async (proof) => {
    expect(await createProofCodec(keys).check(proof, binding)).toBe('invalid');
  });

  it('the session keys sign when there is no secret: another codec of the same keys checks it', async () => {
    const sessionKeys = ['a session key of at least thirty-two characters'];
    const { proof } = await createProofCodec({ sessionKeys }).issue(binding, 60_000);
    expect(createProofCodec({ sessionKeys }).ephemeral).toBe(false);
    expect(await createProofCodec({ sessionKeys }).check(proof, binding)).toMatchObject({
      id: expect.any(String),
    });
    expect(await createProofCodec(keys).check(proof, binding)).toBe('invalid');
  });

  it('a key removed from the secret stops checking on a warm instance within five minutes', async () => {
    let now = 1_000_000;
    let secret = 'session-key-A-at-least-thirty-two-characters';
    const codec = createProofCodec({ sessionKeys: async () => secret }, () => now);
    const { proof } = await codec.issue(binding, 60 * 60_000);
    secret = 'session-key-B-at-least-thirty-two-characters';
    expect(await codec.check(proof, binding)).toMatchObject({ id: expect.any(String) });
    now += 5 * 60_000;
    expect(await codec.check(proof, binding)).toBe('invalid');
  });

  it('without a secret or session keys the key is this process’s own, and says so', async () => {
    const a = createProofCodec({});
    const b = createProofCodec({});
    expect(a.ephemeral).toBe(true);
    expect(await b.check((await a.issue(binding, 60_000)).proof, binding)).toBe('invalid');
    expect(() => createProofCodec({ secret: 'short' })).toThrow(/at least 16 bytes/);
  });
});

describe('the memory ledger', () => {
  it('records an id once, and forgets it a minute after it expired', async () => {
    let now = 0;
    const ledger = memoryApprovalLedger(() => now);
    expect(await ledger.consume('x', 1_000)).toBe(true);
    expect(await ledger.consume('x', 1_000)).toBe(false);
    now = 62_000;
    expect(await ledger.consume('y', 63_000)).toBe(true);
    expect(await ledger.consume('x', 63_000)).toBe(true);
  });
});

describe('the memory ledger at the expiry instant', () => {
  it('a used approval stays used when it is replayed just as it expires (checked before, recorded after)', async () => {
    // The gate checks the proof (not yet expired), then records it: a replay whose check passed at the last
    // millisecond reaches the ledger a moment later, after the expiry. The first use must still be on record.
    let now = 0;
    const ledger = memoryApprovalLedger(() => now);
    expect(await ledger.consume('x', 1_000)).toBe(true);
    now = 1_001;
    expect(await ledger.consume('x', 1_000)).toBe(false);
    now = 1_000 + 10 * 60_000;
    expect(await ledger.consume('y', now + 1_000)).toBe(true);
    expect(await ledger.consume('x', 1_000)).toBe(true);
  });
});

describe('how the person is asked', () => {
  const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
  it.each([
    ['capabilities unknown (handshake era), with a view', undefined, true, 'view'],
    ['capabilities unknown, no view', undefined, false, 'refuse'],
    ['shows views', UI, true, 'view'],
    ['shows views and can be asked', { ...UI, elicitation: {} }, true, 'view'],
    ['can be asked only', { elicitation: {} }, true, 'elicit'],
    ['can be asked, the tool has no view', { elicitation: {} }, false, 'elicit'],
    [
      'shows views of another type only',
      { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/x'] } } },
      true,
      'refuse',
    ],
    ['neither', {}, true, 'refuse'],
  ] as const)('%s: %s', (_label, clientCapabilities, hasView, path) => {
    expect(approvalPath({ ...(clientCapabilities ? { clientCapabilities } : {}) }, hasView)).toBe(path);
  });

  it.each([
    [{ action: 'accept', content: { approve: true } }, 'approved'],
    [{ action: 'accept', content: { approve: 'yes' } }, 'declined'],
    [{ action: 'accept' }, 'declined'],
    [{ action: 'decline', content: { approve: true } }, 'declined'],
    [{ action: 'cancel' }, 'dismissed'],
  ])('answer %j reads as %s', (response, answer) => {
    expect(approvalAnswer({ inputResponses: { approval: response } })).toBe(answer);
  });

  it('no answer in a first call', () => {
    expect(approvalAnswer({ inputResponses: {} })).toBeUndefined();
  });
});
