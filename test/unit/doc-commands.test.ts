import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLoadArgs, readScenario } from '@mcp-lambda/dev/load';
import { codeBlocks } from '../support/markdown.ts';

/**
 * The command lines the documents show are checked against the real commands where the repository owns them: every
 * `npm run load -- …` parses with the load command's own options (a scenario file it names included), every scenario
 * shown in a json block is one the command reads, the synths infra/README.md says CI runs are the ones
 * `.ci/run` runs, and the Inspector's command line is the one that works (its 1.x `inspector-cli` package fails).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const DOCUMENTS = [
  'README.md',
  'BENCHMARKS.md',
  'infra/README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Shell words of one command line: quotes removed, backslash-newline continuations joined. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const c of line.replace(/\\\n\s*/g, ' ')) {
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Every command line starting with `prefix` in the documents' code blocks and inline code, with its place. */
function commands(prefix: string): { where: string; words: string[] }[] {
  return DOCUMENTS.flatMap((path) => {
    const text = read(path);
    const inBlocks = codeBlocks(text).flatMap((b) => b.code.replace(/\\\n\s*/g, ' ').split('\n'));
    const inline = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
    return [...inBlocks, ...inline]
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line.startsWith(prefix))
      .map((line) => ({ where: `${path}: ${line}`, words: shellWords(line) }));
  });
}

describe('command lines in the documents', () => {
  it('every `npm run load -- …` parses with the load command’s options', () => {
    const loads = commands('npm run load -- ');
    expect(loads.length).toBeGreaterThan(2);
    const refused = loads.flatMap(({ where, words }) => {
      try {
        // A shell variable stands for a value of its kind: an endpoint URL, or any word.
        parseLoadArgs(words.slice(4).map((w) => (w.includes('URL') ? 'https://mcp.example.com/mcp' : w)));
        return [];
      } catch (error) {
        return [`${where} → ${(error as Error).message}`];
      }
    });
    expect(refused).toEqual([]);
  });

  it('every load scenario the documents show is one the load command reads', () => {
    const scenarios = DOCUMENTS.flatMap((path) =>
      codeBlocks(read(path))
        .filter((b) => b.lang === 'json' && b.code.includes('"flows"'))
        .map((b) => ({ path, code: b.code })),
    );
    expect(scenarios.length).toBeGreaterThan(0);
    const folder = mkdtempSync(join(tmpdir(), 'doc-scenarios-'));
    try {
      const refused = scenarios.flatMap(({ path, code }, i) => {
        const file = join(folder, `${i}.json`);
        writeFileSync(file, code);
        try {
          readScenario(file);
          return [];
        } catch (error) {
          return [`${path}: ${(error as Error).message}`];
        }
      });
      expect(refused).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('the synths infra/README.md says CI runs are the ones .ci/run runs', () => {
    const section = read('infra/README.md').split('\n## Offline synth and CI\n')[1]!;
    const documented = codeBlocks(section)[0]!
      .code.split('\n')
      .filter((l) => l.startsWith('npx cdk synth'))
      .map((l) => shellWords(l.replace(/\s+#.*$/, '')).join(' '));
    const run = read('.ci/run')
      .split('\n')
      .filter((l) => l.includes('npx cdk synth'))
      .map((l) => shellWords(l.slice(l.indexOf('npx cdk synth'))).join(' '));
    expect(documented).toEqual(run);
  });

  it('the Inspector is run as README runs it, never through the inspector-cli package', () => {
    const inspector = commands('npx @modelcontextprotocol/inspector');
    expect(inspector.length).toBeGreaterThan(1);
    expect(
      inspector.filter((c) => c.words[1] !== '@modelcontextprotocol/inspector').map((c) => c.where),
    ).toEqual([]);
  });

  it('the word splitter keeps quoted arguments whole', () => {
    expect(shellWords(`npm run load -- --args '{"a":1, "b":3}' --token "$T" \\\n  --amount 5`)).toEqual([
      'npm',
      'run',
      'load',
      '--',
      '--args',
      '{"a":1, "b":3}',
      '--token',
      '$T',
      '--amount',
      '5',
    ]);
  });
});
