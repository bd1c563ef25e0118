import { describe, expect, it } from 'vitest';
import { measureExistence } from '../bench/existence.ts';

// The bench's existence-timing part (issue 23), run small: it measures what it says. Its times are reported by
// `npm run bench`, never asserted here.

describe('the existence-timing measurement', () => {
  it('reads each kind of id through both paths, and only the own link is found', async () => {
    const result = await measureExistence(10);
    expect(result.rows.map((r) => [r.path, r.kind, r.tries, r.answer])).toEqual([
      ['read_output', 'own', 10, 'page'],
      ['read_output', 'other caller', 10, 'not_found'],
      ['read_output', 'never issued', 10, 'not_found'],
      ['resources/read', 'own', 10, 'found'],
      ['resources/read', 'other caller', 10, 'not found'],
      ['resources/read', 'never issued', 10, 'not found'],
    ]);
    for (const gap of result.gaps) expect(gap.lowMs).toBeLessThanOrEqual(gap.highMs);
  });
});
