import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportedNames, sharedNames } from '../api/report.ts';

/**
 * Each name has one home: a package's faces (its package.json `exports`) are split by audience, and a name on two of
 * them would leave its audience, its stability and its report ambiguous. The checker's list holds types too; loading
 * each face shows that list misses none of the values a face really exports.
 */
describe('the faces of each package', () => {
  const all = exportedNames();

  it('export each name from one face only', () => {
    expect(sharedNames(all)).toEqual([]);
  });

  it.each(
    all
      .filter(({ face }) => face.pkg === '@mcp-lambda/server')
      .map((entry) => [relative(process.cwd(), entry.face.file), entry] as const),
  )('%s loads no value the checker misses', async (_, { face, names }) => {
    const loaded = Object.keys(await import(face.file));
    expect(loaded.filter((name) => !names.includes(name))).toEqual([]);
  });

  it('the check finds a name two faces export (checked on a sample)', () => {
    const face = (subpath: string) => ({ pkg: '@mcp-lambda/server', subpath });
    expect(
      sharedNames([
        { face: face('.'), names: ['defineTool', 'Logger'] },
        { face: face('./lambda'), names: ['createMcpServer', 'Logger'] },
        { face: { pkg: '@mcp-lambda/dev', subpath: '.' }, names: ['createMcpServer'] },
      ]),
    ).toEqual(['@mcp-lambda/server Logger: ., ./lambda']);
  });
});
