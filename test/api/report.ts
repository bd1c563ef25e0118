/**
 * The API report of every package face: each name a face exports, with its kind and signature, grouped as the face
 * groups them and marked stable or experimental. `npm run api` rewrites each package's `api.md`; a test regenerates
 * the reports and fails when one differs, so a change of the public surface shows in the diff.
 *
 * A face groups its exports with a line comment before each group: `// ## Title (stable)` or
 * `// ## Title (experimental)`. Stable names change only with a major version; experimental ones may change in any
 * release.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { packages, sourceOf } from '../support/packages.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const GROUP = /^\/\/ ## (.+) \((stable|experimental)\)$/;
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** One face of a package: its subpath in `exports` and its file. */
interface Face {
  pkg: string;
  /** The package's folder, where its api.md lives. */
  dir: string;
  subpath: string;
  file: string;
}

/** The faces of every package, from each package.json `exports`. */
export function faces(): Face[] {
  return packages().flatMap(({ dir, manifest }) =>
    Object.entries(manifest.exports).map(([subpath, targets]) => ({
      pkg: manifest.name,
      dir,
      subpath,
      file: join(dir, sourceOf(targets)),
    })),
  );
}

/** The group of each exported name, from the `// ## Title (stability)` comment before its export statement. */
function groupsOf(source: ts.SourceFile): Map<string, string> {
  const groups = new Map<string, string>();
  let current = '';
  for (const statement of source.statements) {
    for (const range of ts.getLeadingCommentRanges(source.text, statement.getFullStart()) ?? []) {
      const match = GROUP.exec(source.text.slice(range.pos, range.end).trim());
      if (match) current = `${match[1]} (${match[2]})`;
    }
    if (!ts.isExportDeclaration(statement) || !statement.exportClause) continue;
    if (!ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) groups.set(element.name.text, current);
  }
  return groups;
}

const printer = ts.createPrinter({ removeComments: true });

/** A class as its public members' signatures. */
function classText(checker: ts.TypeChecker, node: ts.ClassDeclaration, name: string): string {
  const members = node.members.flatMap((member) => {
    const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
    if (
      modifiers.some(
        (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
      )
    )
      return [];
    if (member.name && ts.isPrivateIdentifier(member.name)) return [];
    const isStatic = modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword) ? 'static ' : '';
    const label = member.name ? member.name.getText() : 'constructor';
    if (ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member)) {
      const signature = checker.getSignatureFromDeclaration(member);
      return signature
        ? [`  ${isStatic}${label}${checker.signatureToString(signature, undefined, FLAGS)};`]
        : [];
    }
    if (ts.isPropertyDeclaration(member) || ts.isGetAccessorDeclaration(member)) {
      const type = checker.typeToString(checker.getTypeAtLocation(member), undefined, FLAGS);
      return [`  ${isStatic}${label}: ${type};`];
    }
    return [];
  });
  const heritage = node.heritageClauses?.map((clause) => ` ${clause.getText()}`).join('') ?? '';
  return [`class ${name}${heritage} {`, ...members, '}'].join('\n');
}

/** One exported name as the report shows it: its declaration, without bodies or comments. */
function entryText(checker: ts.TypeChecker, exported: ts.Symbol): string {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const name = exported.name;
  const node = symbol.declarations?.[0];
  if (!node) return `${name}: unknown`;
  const source = node.getSourceFile();
  if (ts.isFunctionDeclaration(node)) {
    const signatures = checker.getSignaturesOfType(checker.getTypeOfSymbol(symbol), ts.SignatureKind.Call);
    return signatures
      .map((s) => `function ${name}${checker.signatureToString(s, undefined, FLAGS)}`)
      .join('\n');
  }
  if (ts.isClassDeclaration(node)) return classText(checker, node, name);
  if (ts.isVariableDeclaration(node))
    return `const ${name}: ${checker.typeToString(checker.getTypeOfSymbol(symbol), undefined, FLAGS)}`;
  if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node))
    return printer.printNode(ts.EmitHint.Unspecified, node, source).replace(/^export (declare )?/, '');
  return `${name}: ${ts.SyntaxKind[node.kind]}`;
}

/** The report of one face, as Markdown. */
function faceReport(program: ts.Program, face: Face): string {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(face.file)!;
  const groups = groupsOf(source);
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
  const byGroup = new Map<string, string[]>();
  for (const symbol of [...exports].sort((a, b) => a.name.localeCompare(b.name))) {
    const group = groups.get(symbol.name) || '(no group)';
    byGroup.set(group, [...(byGroup.get(group) ?? []), entryText(checker, symbol)]);
  }
  const title = face.subpath === '.' ? face.pkg : `${face.pkg}/${face.subpath.slice(2)}`;
  // Groups in the order the face lists them.
  const order = [...new Set(groups.values())];
  const sorted = [...byGroup].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  const sections = sorted.map(([group, entries]) =>
    [`### ${group}`, '', '```ts', entries.join('\n\n'), '```'].join('\n'),
  );
  return [
    `## \`${title}\` (${relative(ROOT, face.file)})`,
    '',
    `${exports.length} exports.`,
    '',
    ...sections,
  ].join('\n');
}

/** One program over every face, with the repository's compiler options. */
function facesProgram(all: Face[]): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, ts.sys as never)!;
  return ts.createProgram(
    all.map((face) => face.file),
    config.options,
  );
}

/** Each face with the names it exports, types included, as the checker sees them. */
export function exportedNames(): { face: Face; names: string[] }[] {
  const all = faces();
  const program = facesProgram(all);
  const checker = program.getTypeChecker();
  return all.map((face) => {
    const source = program.getSourceFile(face.file)!;
    const names = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((s) => s.name);
    return { face, names };
  });
}

/** The names two or more faces of one package export, each with those faces' subpaths. */
export function sharedNames(list: { face: Pick<Face, 'pkg' | 'subpath'>; names: string[] }[]): string[] {
  const seen = new Map<string, string[]>();
  for (const { face, names } of list)
    for (const name of names) {
      const key = `${face.pkg} ${name}`;
      seen.set(key, [...(seen.get(key) ?? []), face.subpath]);
    }
  return [...seen].filter(([, subpaths]) => subpaths.length > 1).map(([key, s]) => `${key}: ${s.join(', ')}`);
}

/** Every package's report, by its api.md path. */
export function reports(): Map<string, string> {
  const all = faces();
  const program = facesProgram(all);
  const byPackage = new Map<string, Face[]>();
  for (const face of all) {
    const path = join(face.dir, 'api.md');
    byPackage.set(path, [...(byPackage.get(path) ?? []), face]);
  }
  const header = (pkg: string) =>
    `# API report: ${pkg}\n\nGenerated by \`npm run api\` from the package's faces (its package.json \`exports\`); a ` +
    'test fails when it differs. Names marked stable change only with a major version; experimental ones may ' +
    'change in any release.';
  return new Map(
    [...byPackage].map(([path, list]) => [
      path,
      `${[header(list[0]!.pkg), ...list.map((face) => faceReport(program, face))].join('\n\n')}\n`,
    ]),
  );
}

/** The groups of a face that carry no stability mark, or the names of it outside any group (for the test). */
export function ungrouped(face: Face): string[] {
  const source = ts.createSourceFile(
    face.file,
    readFileSync(face.file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  return [...groupsOf(source)].filter(([, group]) => group === '').map(([name]) => name);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [path, text] of reports()) {
    writeFileSync(path, text);
    console.log(`wrote ${relative(ROOT, path)}`);
  }
}
