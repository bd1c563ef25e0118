/**
 * Reads the examples out of the repository's documents: fenced code blocks with their language and the section they
 * sit in, and the shell commands and names they quote, so tests can check them against the code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** One fenced code block of a markdown file. */
export interface CodeBlock {
  /** The language after the opening fence (`ts`, `bash`, …), or '' when none is given. */
  lang: string;
  /** The heading the block sits under. */
  section: string;
  code: string;
}

/** The fenced code blocks of a markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let section = '';
  let open: { lang: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    const fence = /^\s*```\s*([\w-]*)/.exec(line);
    if (open && fence) {
      blocks.push({ lang: open.lang, section, code: open.lines.join('\n') });
      open = undefined;
    } else if (open) open.lines.push(line);
    else if (fence) open = { lang: fence[1] ?? '', lines: [] };
    else if (/^#{1,6}\s/.test(line)) section = line.replace(/^#+\s+/, '');
  }
  return blocks;
}

/** The `npm run <script>` names a text quotes. */
export const npmScripts = (text: string) => [...text.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => m[1]!);

/** The environment-variable-like names a markdown text quotes in backticks (`OFFLOAD_BUCKET`, `MCP_AUTH_MODE`). */
export const quotedVariables = (text: string) => [
  ...new Set([...text.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((m) => m[1]!)),
];

/** What the first table under a heading of a markdown text quotes in backticks, in any column. */
export function tableNames(markdown: string, heading: string): string[] {
  const from = markdown.indexOf(`\n## ${heading}\n`);
  if (from < 0) return [];
  const rows = markdown.slice(from).split('\n').slice(2);
  const table = rows.slice(rows.findIndex((l) => l.startsWith('|')));
  return table
    .slice(
      2,
      table.findIndex((l) => !l.startsWith('|')),
    )
    .flatMap((row) => [...row.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}

/** The type errors of a module that is not on disk, type-checked as if it were at `path` with the project's settings. */
export function typeErrors(root: string, path: string, source: string): string[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => file === path || fileExists(file);
  host.readFile = (file) => (file === path ? source : readFile(file));
  host.getSourceFile = (file, version, ...rest) =>
    file === path ? ts.createSourceFile(file, source, version, true) : getSourceFile(file, version, ...rest);
  const program = ts.createProgram([path], options, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(path))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** A document of the repository, by its path from the root. */
export const readDocument = (root: string, path: string) => readFileSync(join(root, path), 'utf8');
