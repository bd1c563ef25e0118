/**
 * Finds where a comment or a document names a file of the repository, and which of those names point at nothing:
 * paths from a top-level folder (`packages/server/src/index.ts`, `docs/outputs.md`), shorter paths and file names
 * (`bundling.ts`, `cdk/src/bundling.ts`, `BENCHMARKS.md`) and relative markdown links with their anchors
 * (`[tasks](docs/tasks.md#crashes-and-time-limits)`). In code only the comments count: what the code itself opens is
 * checked by running it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';

/**
 * What git ignores holds no source of ours (dependencies, build and test output, local state): the folders and
 * file-name patterns of the root's .gitignore, and git's own folder.
 */
function ignored(root: string): { folders: Set<string>; files: RegExp[] } {
  const lines = readFileSync(join(root, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const folders = new Set([
    '.git',
    ...lines.filter((l) => l.endsWith('/')).map((l) => l.replace(/^\/|\/$/g, '')),
  ]);
  const glob = (pattern: string) =>
    new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return { folders, files: lines.filter((l) => !l.endsWith('/')).map(glob) };
}
/** Files checked: documentation, code, configuration. */
const CHECKED = /\.(md|ts|mjs|json|yml)$/;
/** Generated files: their text comes from a generator, whose own source is checked. */
const GENERATED = /(\.generated\.ts|package-lock\.json)$/;
/**
 * Files a build or a run writes, never kept in the repository: the packages' built files, bundles, results, the
 * local S3 server's records.
 */
const RUN_OUTPUTS =
  /^(\.local\/.*|(\.\/)?dist\/.*|packages\/[\w-]+\/dist\/.*|index\.mjs|child-[\w-]+\.mjs|latest\.json|checks\.json|_metadata\.json)$/;
/** The repository's top-level folders: a path that starts with one is read from the root. */
const ROOTS = [
  'packages',
  'functions',
  'infra',
  'test',
  'docs',
  'src',
  'release',
  '.ci',
  '.changeset',
  '.github',
];

/** One place where a file names a path. */
export interface Reference {
  /** The file that holds the reference, relative to the repository root. */
  file: string;
  line: number;
  /** The reference as written. */
  text: string;
  /** A markdown link resolves from its file's folder; a path from the root, its package, or as the end of a path. */
  kind: 'link' | 'path';
  /** A section cited by its title (`docs/tasks.md "Tasks or streaming?"`): a heading of the file must hold it. */
  section?: string;
}

/** Every file of the repository that git does not ignore, relative to the root, in POSIX form. */
export function repositoryFiles(root: string, skip = ignored(root), folder = ''): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return skip.folders.has(entry.name) ? [] : repositoryFiles(root, skip, path);
    return skip.files.some((pattern) => pattern.test(entry.name)) ? [] : [path];
  });
}

/** The files whose comments or text are checked: documentation, code and configuration, generated files aside. */
export const checkedFiles = (files: string[]) => files.filter((f) => CHECKED.test(f) && !GENERATED.test(f));

/** The comments of a code file, at their own offsets (everything else blanked, line breaks kept). */
export function commentsOnly(file: string, text: string): string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const kept = text.replace(/[^\n]/g, ' ').split('');
  const seen = new Set<number>();
  const keep = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      for (let i = range.pos; i < range.end; i++) kept[i] = text[i]!;
    }
  };
  const visit = (node: ts.Node) => {
    keep(ts.getLeadingCommentRanges(text, node.getFullStart()));
    keep(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return kept.join('');
}

/** A markdown file's prose: code blocks blanked (an example names the files its reader will write). */
function proseOnly(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      const fence = /^\s*```/.test(line);
      const blank = fenced || fence;
      if (fence) fenced = !fenced;
      return blank ? '' : line;
    })
    .join('\n');
}

const NAME = String.raw`[\w.@*<>{}…-]`;
/** A path with a slash after a top-level folder, or any path or name that ends in a checked file's extension. */
const PATH = new RegExp(
  String.raw`(?<![\w./@:\\-])((?:\.{1,2}/)*(?:(?:${ROOTS.join('|').replace('.', '\\.')})/${NAME}*(?:/${NAME}+)*/?|(?:${NAME}+/)*\w[\w.-]*\.(?:md|ts|mjs|json|yml)\b))`,
  'g',
);
const LINK = /\]\(([^)\s]+)\)/g;
/** A section cited by title: `README "Add a tool"`, `docs/tasks.md "Crashes and time limits"`. */
const CITATION = /(?<![\w./-])(README|[\w./-]+\.md)(?:'s)? "([^"]+)"/g;

/** The references a file's text makes, with the line each is on. */
export function referencesIn(file: string, text: string): Reference[] {
  const scanned = /\.(ts|mjs)$/.test(file)
    ? commentsOnly(file, text)
    : file.endsWith('.md')
      ? proseOnly(text)
      : text;
  const found: Reference[] = [];
  scanned.split('\n').forEach((content, index) => {
    const line = index + 1;
    const links = file.endsWith('.md') ? [...content.matchAll(LINK)].map((m) => m[1]!) : [];
    for (const link of links)
      if (!/^[a-z][\w+.-]*:/i.test(link)) found.push({ file, line, text: link, kind: 'link' });
    for (const m of content.matchAll(CITATION)) {
      const text = m[1] === 'README' ? 'README.md' : m[1]!;
      found.push({ file, line, text, kind: 'path', section: m[2]! });
    }
    for (const m of content.replace(LINK, '](…)').matchAll(PATH)) {
      const text = m[1]!.replace(/[.…]+$/, '');
      if (text.includes('/') || /\.\w+$/.test(text)) found.push({ file, line, text, kind: 'path' });
    }
  });
  return found;
}

/** The titles of a markdown file's headings, as written. */
function headings(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').flatMap((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    return heading ? [heading[1]!] : [];
  });
}

/** GitHub's anchors for a markdown file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const title of headings(markdown)) {
    const slug = title
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  }
  return anchors;
}

/** A segment that stands for any name: a placeholder (`<id>`, `{name}`, `...`, `…`) or a glob (`bridge-*`). */
const WILD = /[<{*…]|^\.\.\.$/;

/** Whether a repository-relative path exists; a placeholder matches any name in its folder, a glob some name. */
function pathExists(root: string, path: string): boolean {
  let folder = '';
  for (const segment of posix.normalize(path).split('/').filter(Boolean)) {
    if (segment === '..') return false;
    if (WILD.test(segment)) {
      if (!/^[\w.*-]+$/.test(segment)) return existsSync(join(root, folder));
      const glob = new RegExp(`^${segment.replace(/\./g, '\\.').replace(/\*/g, '.*')}$`);
      return (
        existsSync(join(root, folder)) && readdirSync(join(root, folder)).some((name) => glob.test(name))
      );
    }
    folder = folder ? `${folder}/${segment}` : segment;
  }
  return existsSync(join(root, folder));
}

/** Where a reference may point: the file it resolves to, or undefined when nothing of that name exists. */
function resolveReference(
  root: string,
  reference: Reference,
  target: string,
  files: string[],
): string | undefined {
  if (target === '') return reference.file;
  const here = dirname(reference.file);
  if (reference.kind === 'link' || target.startsWith('./') || target.startsWith('../')) {
    const path = posix.join(here, target);
    return pathExists(root, path) ? path : undefined;
  }
  const rooted = ROOTS.some((r) => target.startsWith(`${r}/`));
  const pkg = /^packages\/[^/]+\//.exec(reference.file)?.[0];
  const tries = [target, ...(pkg ? [pkg + target] : [])];
  if (rooted) return tries.find((path) => pathExists(root, path));
  const bare = target.replace(/\/$/, '');
  const named = files.find((f) => f === bare) ?? files.find((f) => f.endsWith(`/${bare}`));
  return named ?? tries.find((path) => pathExists(root, path));
}

/** The references among `references` that name no file or folder (or no heading) of the repository. */
export function dangling(root: string, references: Reference[], files: string[]): Reference[] {
  const texts = new Map<string, string>();
  const textOf = (file: string) => {
    if (!texts.has(file)) texts.set(file, readFileSync(join(root, file), 'utf8'));
    return texts.get(file)!;
  };
  const holds = (file: string, section: string) =>
    headings(textOf(file)).some((title) => title.toLowerCase().includes(section.toLowerCase()));
  return references.filter((reference) => {
    const [target = '', anchor] = reference.text.split('#');
    if (RUN_OUTPUTS.test(target)) return false;
    const found = resolveReference(root, reference, target, files);
    if (found === undefined) return true;
    if (!found.endsWith('.md') || !statSync(join(root, found)).isFile()) return false;
    if (reference.section !== undefined && !holds(found, reference.section)) return true;
    return anchor !== undefined && !headingAnchors(textOf(found)).has(anchor);
  });
}
