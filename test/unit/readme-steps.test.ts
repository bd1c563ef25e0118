import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addToList, readmeSteps } from '../support/readme-steps.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');

describe("README's add-a-tool steps, as the registry tier does them", () => {
  it('finds the example tool, the file its first line names, and the list to add it to', () => {
    const steps = readmeSteps(read('README.md'));
    expect(steps).toMatchObject({
      path: 'src/tools/word-count.ts',
      exported: 'wordCount',
      list: 'src/tools/index.ts',
    });
    expect(steps.code).toContain("name: 'word_count'");
  });

  // The registry tier does the steps of the README the app gets; this repository's README shows the same ones.
  it("the app README shows the same steps as this repository's README", () => {
    expect(readmeSteps(read('packages/create/app/README.md'))).toEqual(readmeSteps(read('README.md')));
  });

  it('refuses a README whose section no longer shows the steps', () => {
    expect(() => readmeSteps('# x\n\n## Add a tool\n\nWrite a tool.\n\n## Next\n')).toThrow(
      /update this check/,
    );
  });

  it('adds the import after the last one and the tool at the end of the list', () => {
    // A list of its own, not the template's: the user may already have added the tool there.
    const list = [
      "import type { ToolDefinition } from '@mcp-lambda/server';",
      "import { ping } from './ping.ts';",
      "import { textStats } from './text-stats.ts';",
      '',
      '/** The tools. */',
      'export const tools: ToolDefinition[] = [',
      '  ping,',
      '  renderChart,',
      '];',
      '',
    ].join('\n');
    const added = addToList(list, 'wordCount', './word-count.ts');
    expect(added).toMatch(
      /import \{ textStats \} from '\.\/text-stats\.ts';\nimport \{ wordCount \} from '\.\/word-count\.ts';\n/,
    );
    expect(added).toMatch(/ {2}renderChart,\n {2}wordCount,\n\];/);
  });
});
