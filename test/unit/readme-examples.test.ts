import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateReport } from '../../src/tools/generate-report.ts';
import type { ToolDefinition } from '@mcp-lambda/server';
import { createMcpServer, createOffloader } from '@mcp-lambda/server/lambda';
import { memoryStorage } from '@mcp-lambda/server/backend';
import { commentsOnly } from '../support/references.ts';
import {
  codeBlocks,
  npmScripts,
  quotedVariables,
  readDocument,
  tableNames,
  typeErrors,
} from '../support/markdown.ts';
import { send } from '@mcp-lambda/dev/testing';

/**
 * The examples of README.md and docs/ are checked against the code: the tool example compiles against the library's
 * face and works, the scripts and variables they name exist, and what they show a tool answering is what it answers.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FACE = join(ROOT, 'packages/server/src/index.ts');
const README = readDocument(ROOT, 'README.md');
const DOCUMENTS = ['README.md', 'BENCHMARKS.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)];
const all = DOCUMENTS.map((path) => ({ path, text: readDocument(ROOT, path) }));
const blocks = all.flatMap(({ path, text }) => codeBlocks(text).map((block) => ({ path, ...block })));

/** Names of AWS's own that the documents quote in capitals, which no code of ours reads. */
const AWS_NAMES = new Set(['NO_MATCH', 'RESPONSE_STREAM']);

const example = codeBlocks(README).find((b) => b.section === 'Add a tool' && b.code.includes("'word_count'"));
const call = (server: ReturnType<typeof createMcpServer>, name: string, args: unknown) =>
  send(server, {
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  }).then((r) => r.json.result);

/** The code of a source tree with its comments left out: what a name must appear in to be real. */
function code(folder: string): string {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.includes('node_modules'))
    .map((f) => {
      const text = readDocument(ROOT, join(folder, f));
      const comments = commentsOnly(f, text);
      return text
        .split('')
        .map((c, i) => (comments[i] === ' ' || c === '\n' ? c : ' '))
        .join('');
    })
    .join('\n');
}

describe('README "Add a tool": the word_count example', () => {
  it('imports the library by its package name and type-checks where README says to put it', () => {
    expect(example, 'README "Add a tool" shows the word_count tool in a ts block').toBeDefined();
    expect(example!.code).toContain("from '@mcp-lambda/server'");
    const path = join(ROOT, 'src/tools/word-count.ts');
    expect(typeErrors(ROOT, path, example!.code)).toEqual([]);
    // A whole type-check of the project: about 10 s of one core, several times that on a busy machine.
  }, 120_000);

  it('is a valid tool: listed with its schema, counts words, answers empty text with advice', async () => {
    const file = join(tmpdir(), `word-count-${process.pid}.ts`);
    writeFileSync(file, example!.code.replace("'@mcp-lambda/server'", JSON.stringify(FACE)));
    const { wordCount } = (await import(file)) as { wordCount: ToolDefinition };
    const server = createMcpServer({ info: { name: 'readme', version: '1.0.0' }, tools: [wordCount] });

    const list = await send(server, { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(list.json.result.tools).toEqual([
      expect.objectContaining({
        name: 'word_count',
        inputSchema: expect.objectContaining({ required: ['text'] }),
      }),
    ]);
    expect(await call(server, 'word_count', { text: 'one two  three' })).toEqual({
      content: [{ type: 'text', text: '3 words' }],
    });
    const empty = await call(server, 'word_count', { text: '   ' });
    expect(empty).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/empty/) }],
    });
    const wrong = await call(server, 'word_count', { text: 42 });
    expect(wrong).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/text/) }],
    });
  });
});

describe('names the documents quote', () => {
  it('every `npm run` script of README and docs/ exists in package.json', () => {
    const scripts = Object.keys(JSON.parse(readDocument(ROOT, 'package.json')).scripts);
    const named = all.flatMap(({ path, text }) => npmScripts(text).map((s) => `${path}: ${s}`));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((n) => !scripts.includes(n.split(': ')[1]!))).toEqual([]);
  });

  it('every variable README and docs/ quote is read by the code', () => {
    const sources = ['packages', 'functions', 'infra'].map(code).join('\n');
    const quoted = all.flatMap(({ path, text }) => quotedVariables(text).map((name) => ({ path, name })));
    expect(quoted.length).toBeGreaterThan(30);
    const missing = quoted.filter(
      ({ name }) => !AWS_NAMES.has(name) && !new RegExp(`\\b${name}\\b`).test(sources),
    );
    expect(missing.map(({ path, name }) => `${path}: ${name}`)).toEqual([]);
  });

  it('README "Configuration" lists every variable the functions read from the environment', () => {
    const readers = ['packages/server/src/config.ts', 'packages/server/src/log.ts'].map((f) =>
      readDocument(ROOT, f),
    );
    const read = new Set(
      readers.flatMap((text) => [
        ...[...text.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!),
        ...[...text.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]!),
      ]),
    );
    const table = tableNames(README, 'Configuration').join(' ');
    expect(read.size).toBeGreaterThan(25);
    expect([...read].filter((name) => !table.includes(name))).toEqual([]);
  });
});

describe('commands the documents show', () => {
  it('a load test against `npm start` starts it at the quiet log level', () => {
    const load = blocks.filter((b) => b.code.includes('npm run load') && b.code.includes('npm start'));
    expect(load.length).toBeGreaterThan(0);
    for (const block of load)
      for (const line of block.code.split('\n').filter((l) => /\bnpm start\b/.test(l)))
        expect(line, block.path).toMatch(/POWERTOOLS_LOG_LEVEL=WARN npm start/);
  });

  it('README and BENCHMARKS.md name the quick bench, and the bench knows it', async () => {
    for (const path of ['README.md', 'BENCHMARKS.md'])
      expect(readDocument(ROOT, path), path).toContain('npm run bench -- --quick');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'test/bench/run.ts', '--help'],
      {
        cwd: ROOT,
      },
    );
    expect(stdout).toMatch(/^\s+--quick\s/m);
  });

  it('generate_report is shown answering text/csv, the type it stores its report as', async () => {
    const storage = memoryStorage();
    const server = createMcpServer({
      info: { name: 'readme', version: '1.0.0' },
      tools: [generateReport],
      offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 1024, ttlDays: 1 }),
    });
    const result = await call(server, 'generate_report', { rows: 100 });
    const link = result.content.find((b: { type: string }) => b.type === 'resource_link');
    expect(link.mimeType).toBe('text/csv');
    const shown = blocks.filter((b) => b.code.includes('generate_report') && /\(text\/[\w-]+,/.test(b.code));
    expect(shown.length).toBeGreaterThan(0);
    for (const block of shown) expect(block.code, block.path).not.toMatch(/\(text\/(?!csv)[\w-]+,/);
  });
});

describe('documents a newcomer reads in ten minutes', () => {
  it.each([
    ['README.md', 400],
    ['BENCHMARKS.md', 250],
  ] as const)('%s has at most %i lines', (path, max) => {
    expect(readFileSync(join(ROOT, path), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(max);
  });
});
