import { describe, expect, it } from 'vitest';
import { generateValidatorModules } from '../../src/build/validators.ts';
import { defineTool } from '../../src/tools/define.ts';

/**
 * The files `npm run generate` writes are named for the tool whose schema they check, so a tool added, removed or
 * moved in the list rewrites no other tool's file (two people adding tools do not conflict over renumbered files).
 */

const tool = (name: string, property: string) =>
  defineTool({
    name,
    description: name,
    inputSchema: { type: 'object', properties: { [property]: { type: 'string' } } } as const,
    handler: () => name,
  });

const first = tool('first', 'a');
const second = tool('second', 'b');
const added = tool('added', 'c');

describe('generated validator files', () => {
  it('are named for the tool and role, the built-in tools included', () => {
    const files = Object.keys(generateValidatorModules([first, second]).modules);
    expect(files).toEqual(
      expect.arrayContaining([
        'first.input.generated.ts',
        'second.input.generated.ts',
        'read_output.input.generated.ts',
        'read_output.output.generated.ts',
      ]),
    );
  });

  it('a tool added first or last, or the list reordered, leaves every other file as it was', () => {
    const before = generateValidatorModules([first, second]).modules;
    for (const list of [
      [added, first, second],
      [first, second, added],
      [second, first],
    ]) {
      const after = generateValidatorModules(list).modules;
      for (const [file, source] of Object.entries(before)) expect(after[file], file).toBe(source);
    }
  });

  it('tools with the same schema share the first one’s file', () => {
    const twin = tool('twin', 'a');
    const { modules, table } = generateValidatorModules([first, twin]);
    expect(Object.keys(modules)).not.toContain('twin.input.generated.ts');
    expect(table).toContain(`"twin#input": { hash:`);
    expect(table).toMatch(/"twin#input": .*first\.input\.generated\.ts/);
  });

  it('names that differ only in case get files that differ in more than case', () => {
    const files = Object.keys(generateValidatorModules([tool('Report', 'a'), tool('report', 'b')]).modules);
    const lower = files.map((f) => f.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
  });
});
