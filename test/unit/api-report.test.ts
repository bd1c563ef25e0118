import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faces, reports, ungrouped } from '../api/report.ts';

/**
 * The public surface, reviewed: each package's api.md is the report of its faces (every export, its kind and its
 * signature, grouped and marked stable or experimental), and must be what `npm run api` writes today.
 */
describe('the API reports', () => {
  it.each(faces().map((face) => [relative(process.cwd(), face.file), face] as const))(
    '%s puts every export in a group marked stable or experimental',
    (_, face) => {
      expect(ungrouped(face)).toEqual([]);
    },
  );

  it('each package api.md is the report of its faces (run `npm run api` after changing a face)', () => {
    for (const [path, text] of reports()) expect(readFileSync(path, 'utf8'), path).toBe(text);
  }, 180_000);
});
