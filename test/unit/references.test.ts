import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkedFiles,
  dangling,
  headingAnchors,
  referencesIn,
  repositoryFiles,
  type Reference,
} from '../support/references.ts';

/**
 * No comment or document points at a file that is not in the repository: every path a comment, a document or a
 * configuration file names exists, every relative markdown link resolves (its anchor too), and every section cited
 * by title (`README "Add a tool"`) is a heading of that file.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const files = repositoryFiles(ROOT);
const checked = checkedFiles(files);
const where = (r: Reference) =>
  `${r.file}:${r.line}: ${r.text}${r.section === undefined ? '' : ` "${r.section}"`}`;

describe('references in comments and documents', () => {
  it('finds the documents and the code to check', () => {
    expect(checked).toEqual(expect.arrayContaining(['README.md', 'packages/server/src/index.ts']));
    expect(checked.some((f) => f.startsWith('node_modules/'))).toBe(false);
    expect(checked.some((f) => f.endsWith('.generated.ts'))).toBe(false);
  });

  it('every file, folder, anchor and section named exists', () => {
    const references = checked.flatMap((file) => referencesIn(file, readFileSync(ROOT + file, 'utf8')));
    expect(references.length).toBeGreaterThan(100);
    expect(dangling(ROOT, references, files).map(where)).toEqual([]);
  });
});

describe('the reference check itself', () => {
  const check = (file: string, text: string) =>
    dangling(ROOT, referencesIn(file, text), files).map((r) => r.text + (r.section ? ` "${r.section}"` : ''));

  it('flags paths from a top-level folder, bare file names and partial paths that name nothing', () => {
    const text = [
      'see `packages/server/src/nowhere.ts`, src/offload/policy.ts and `docs/missing.md`',
      'the rules of mcp-checklist.md, `STYLE.md` and constructs/bundled-function.ts',
      'but `packages/server/src/index.ts`, `bundling.ts`, cdk/src/bundling.ts and `packages/bridge/test/integration/bridge-*`',
    ].join('\n');
    expect(check('docs/x.md', text)).toEqual([
      'packages/server/src/nowhere.ts',
      'src/offload/policy.ts',
      'docs/missing.md',
      'mcp-checklist.md',
      'STYLE.md',
      'constructs/bundled-function.ts',
    ]);
  });

  it('resolves markdown links from the document’s folder, with their anchors', () => {
    const text =
      '[a](outputs.md#locally) [b](../README.md#add-a-tool) [c](docs/tasks.md) [d](tasks.md#nowhere)';
    expect(check('docs/x.md', text)).toEqual(['docs/tasks.md', 'tasks.md#nowhere']);
  });

  it('reads only the comments of code: what the code opens is checked by running it', () => {
    const code = "const file = 'docs/not-a-reference.md'; // see docs/missing.md\n/** and `gone.ts` */\n";
    expect(check('packages/x.ts', code)).toEqual(['docs/missing.md', 'gone.ts']);
  });

  it('checks a section cited by its title against the headings of its file', () => {
    const text =
      '(README "Add a tool"), (docs/tasks.md "Crashes and time limits"), (README "Project layout")';
    expect(check('packages/x.md', text)).toEqual(['README.md "Project layout"']);
  });

  it('leaves a file a build or a run writes, and placeholders, alone', () => {
    const text = 'loads `index.mjs`, writes `.local/bench/latest.json`, stores `functions/<name>/handler.ts`';
    expect(check('docs/x.md', text)).toEqual([]);
  });

  it('makes the anchors GitHub makes', () => {
    const anchors = headingAnchors(
      '# A: b `c`\n## Tasks or streaming?\n## Tasks or streaming?\n```\n# not\n```',
    );
    expect([...anchors]).toEqual(['a-b-c', 'tasks-or-streaming', 'tasks-or-streaming-1']);
  });
});
