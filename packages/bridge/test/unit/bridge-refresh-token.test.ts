import { describe, expect, it } from 'vitest';
import { firstRefreshToken, issuedByBridge, REFRESH_TOKEN, successorOf } from '../../src/refresh-token.ts';
import { createSealer } from '../../src/seal.ts';

const sealer = createSealer('k'.repeat(32));
const FAMILY = 'F'.repeat(22);

describe('refresh tokens the bridge can recognise as its own', () => {
  it('makes tokens of the one shape, the family id first, that it recognises, successors included', () => {
    const first = firstRefreshToken(sealer, FAMILY);
    const next = successorOf(sealer, first, FAMILY);
    for (const token of [first, next]) {
      expect(REFRESH_TOKEN.exec(token)?.[1]).toBe(FAMILY);
      expect(issuedByBridge(sealer, token)).toBe(true);
    }
    expect(next).not.toBe(first);
    expect(successorOf(sealer, first, FAMILY)).toBe(next);
    expect(firstRefreshToken(sealer, FAMILY)).not.toBe(first);
  });

  it.each<[string, (token: string) => string]>([
    ['made up from a family id', () => `${FAMILY}.${'A'.repeat(43)}`],
    ['with one character changed', (t) => t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A')],
    ['moved to another family', (t) => `${'G'.repeat(22)}${t.slice(22)}`],
    ['of another shape', (t) => `${t}A`],
  ])('does not recognise a token %s', (_, alter) => {
    expect(issuedByBridge(sealer, alter(firstRefreshToken(sealer, FAMILY)))).toBe(false);
  });

  it('does not recognise a token another key made', () => {
    const other = createSealer('o'.repeat(32));
    expect(issuedByBridge(sealer, firstRefreshToken(other, FAMILY))).toBe(false);
  });
});
